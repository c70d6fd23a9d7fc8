"""The plugin host: finds plugins, calls their hooks, and keeps a broken one from hurting the bot.

Plugins come from three places, in this order: the built-in plugin, the
``citebot`` entry point group (sorted by name), then ``settings.plugins.load``.
``settings.plugins.disable`` names plugins (entry point name, module or
distribution) that are not loaded at all.

pluggy would stop a hook call at the first exception, so the host calls each
implementation itself: a plugin that raises at import, at registration or in
a hook is logged, reported by ``citebot plugins``, and skipped.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib.metadata import EntryPoint, PackageNotFoundError, entry_points, version
from typing import TYPE_CHECKING, Any, Literal

import pluggy
from pluggy import HookImpl

from bots.plugins import hookspecs
from bots.plugins.builtin import default_styles
from bots.plugins.commands import ChatCommand, problems
from bots.plugins.context import PluginContext, plugin_context
from bots.plugins.refusal import Refusal
from bots.settings import Settings
from bots.settings.sections import PluginSettings
from citations.render.style import CitationStyle
from pipeline.events import Done
from pipeline.llm_failures import traceback_if_debug
from pipeline.question import Question

if TYPE_CHECKING:
    from bots.core.ports import PluginHooks
    from bots.plugins.context import RuntimeView

__all__ = ["PluginHost", "PluginInfo", "commands_of"]

log = logging.getLogger("citebot.plugins")

BUILTIN = "builtin"
BUILTIN_MODULE = "bots.plugins.builtin"

Status = Literal["loaded", "disabled", "broken"]
LoadedFrom = Literal["built in", "entry point", "settings", "code"]

_FAILED = object()


@dataclass(slots=True)
class PluginInfo:
    """What ``citebot plugins`` shows about one plugin."""

    name: str
    module: str
    source: LoadedFrom
    distribution: str | None = None
    status: Status = "loaded"
    hooks: tuple[str, ...] = ()
    provides: dict[str, list[str]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    failures: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "module": self.module,
            "source": self.source,
            "distribution": self.distribution,
            "status": self.status,
            "hooks": list(self.hooks),
            "provides": self.provides,
            "problems": self.problems,
        }


class PluginHost:
    def __init__(self, settings: PluginSettings | None = None) -> None:
        self.settings = settings or PluginSettings()
        self._pm = pluggy.PluginManager(hookspecs.PROJECT)
        self._pm.add_hookspecs(hookspecs)
        self._infos: dict[str, PluginInfo] = {}
        self._cache: dict[str, Any] = {}
        self._disabled = {d.strip() for d in self.settings.disable if d.strip()}
        self._discover()

    # -- discovery -----------------------------------------------------------

    def _discover(self) -> None:
        self._add(
            BUILTIN,
            BUILTIN_MODULE,
            "built in",
            lambda: importlib.import_module(BUILTIN_MODULE),
            _own_distribution(),
        )
        if self.settings.entry_points:
            for ep in sorted(entry_points(group=hookspecs.PROJECT), key=lambda e: e.name):
                if ep.name == BUILTIN and ep.module == BUILTIN_MODULE:
                    continue
                self._add(ep.name, ep.value, "entry point", ep.load, _distribution(ep))
        for spec in self.settings.load:
            spec = spec.strip()
            if spec:
                self._add(spec, spec, "settings", functools.partial(_import, spec))

    def _add(
        self,
        name: str,
        module: str,
        source: LoadedFrom,
        load: Callable[[], object],
        distribution: str | None = None,
    ) -> None:
        info = PluginInfo(name=name, module=module, source=source, distribution=distribution)
        if self._is_disabled(info):
            info.status = "disabled"
            self._infos.setdefault(name, info)
            return
        if name in self._infos:
            log.warning(
                "plugin name %r is used twice; %s (%s) was not loaded", name, module, source
            )
            return
        self._infos[name] = info
        try:
            plugin = load()
        except (Exception, SystemExit) as exc:
            self._broken(info, f"import failed: {_one_line(exc)}", exc)
            return
        self._register(info, plugin)

    def register(self, plugin: object, name: str | None = None) -> PluginInfo:
        """Add a plugin object (a module, a class instance) from code, e.g. in an embedding app."""
        module = getattr(plugin, "__name__", type(plugin).__module__)
        name = name or module
        info = PluginInfo(name=name, module=module, source="code")
        if name in self._infos:
            raise ValueError(f"a plugin named {name!r} is already registered")
        self._infos[name] = info
        self._register(info, plugin)
        return info

    def _register(self, info: PluginInfo, plugin: object) -> None:
        if self._pm.is_registered(plugin):
            other = self._pm.get_name(plugin)
            info.status = "disabled"
            info.problems.append(f"already loaded as plugin {other!r}")
            return
        try:
            self._pm.register(plugin, name=info.name)
        except Exception as exc:  # pluggy.PluginValidationError: a bad hook signature
            self._broken(info, f"invalid plugin: {_one_line(exc)}", exc)
            return
        callers = self._pm.get_hookcallers(plugin) or []
        info.hooks = tuple(sorted(c.name for c in callers))
        for caller in callers:
            if caller.spec is None:
                info.problems.append(f"unknown hook {caller.name!r}, never called")
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin and (impl.hookwrapper or impl.wrapper):
                    info.problems.append(f"{caller.name}: hook wrappers are not supported, skipped")
        self._cache.clear()

    def _is_disabled(self, info: PluginInfo) -> bool:
        names = {info.name, info.module, info.module.partition(":")[0]}
        if info.distribution:
            names.add(info.distribution.split(" ")[0])
        return bool(names & self._disabled)

    def _broken(self, info: PluginInfo, problem: str, exc: BaseException) -> None:
        info.status = "broken"
        info.problems.append(problem)
        # one line for an operator; the traceback only when debugging (rule: no tracebacks)
        log.error(
            "plugin %s is broken and was not loaded: %s",
            info.name,
            problem,
            exc_info=traceback_if_debug(log, exc),
        )

    # -- calling hooks ---------------------------------------------------------

    def _impls(self, hook: str, *, call_order: bool) -> list[HookImpl]:
        impls = [
            i
            for i in getattr(self._pm.hook, hook).get_hookimpls()
            if not (i.hookwrapper or i.wrapper)
        ]
        # pluggy calls the last registered first (tryfirst/trylast respected)
        return impls[::-1] if call_order else impls

    def _failed(self, plugin: str, hook: str, exc: BaseException | str) -> None:
        info = self._infos.get(plugin)
        text = exc if isinstance(exc, str) else _one_line(exc)
        first = info is None or info.failures == 0
        if info is not None:
            info.failures += 1
            if len(info.problems) < 20:
                info.problems.append(f"{hook}: {text}")
        # the one-line reason always; the traceback of the first failure only when debugging
        trace = traceback_if_debug(log, exc) if first and isinstance(exc, BaseException) else None
        log.error("plugin %s failed in %s; skipped: %s", plugin, hook, text, exc_info=trace)

    def _collect(self, hook: str) -> list[tuple[str, Any]]:
        results: list[tuple[str, Any]] = []
        for impl in self._impls(hook, call_order=False):
            try:
                value = impl.function()
                if isinstance(value, Iterator):  # a generator runs plugin code: run it here
                    value = list(value)
            except (Exception, SystemExit) as exc:  # a plugin's sys.exit() must not end the bot
                self._failed(impl.plugin_name, hook, exc)
                continue
            if inspect.isawaitable(value):
                if inspect.iscoroutine(value):
                    value.close()
                self._failed(impl.plugin_name, hook, f"{hook} must not be async")
                continue
            if value is not None:
                results.append((impl.plugin_name, value))
        return results

    async def _call(self, impl: HookImpl, hook: str, kwargs: Mapping[str, Any]) -> Any:
        try:
            value = impl.function(*[kwargs[a] for a in impl.argnames])
            if inspect.isawaitable(value):
                async with asyncio.timeout(self.settings.hook_timeout):
                    value = await value
        except TimeoutError:
            self._failed(impl.plugin_name, hook, f"timed out after {self.settings.hook_timeout:g}s")
            return _FAILED
        except (Exception, SystemExit) as exc:  # a plugin's sys.exit() must not end the bot
            self._failed(impl.plugin_name, hook, exc)
            return _FAILED
        return value

    # -- registrations ---------------------------------------------------------

    def _provide(self, plugin: str, kind: str, name: str) -> None:
        info = self._infos.get(plugin)
        if info is not None:
            info.provides.setdefault(kind, []).append(name)

    def commands(self) -> list[ChatCommand]:
        """Every valid command, first registration wins (the built-ins come first)."""
        if "commands" not in self._cache:
            found: dict[str, ChatCommand] = {}
            for plugin, value in self._collect("register_commands"):
                for command in _as_list(value, ChatCommand):
                    trouble = problems(command)
                    if not trouble and command.name in found:
                        owner = found[command.name].plugin
                        trouble = [f"command /{command.name} is already registered by {owner}"]
                    if trouble:
                        for line in trouble:
                            self._failed(plugin, "register_commands", line)
                        continue
                    found[command.name] = replace(command, plugin=plugin)
                    self._provide(plugin, "commands", command.name)
            self._cache["commands"] = list(found.values())
        commands: list[ChatCommand] = self._cache["commands"]
        return list(commands)

    def _named(self, hook: str, kind: str) -> dict[str, Callable[..., Any]]:
        if kind not in self._cache:
            found: dict[str, Callable[..., Any]] = {}
            owners: dict[str, str] = {}
            for plugin, value in self._collect(hook):
                if not isinstance(value, Mapping):
                    self._failed(
                        plugin,
                        hook,
                        f"must return a dict of name → factory, not {type(value).__name__}",
                    )
                    continue
                for name, factory in value.items():
                    if not isinstance(name, str) or not name or not callable(factory):
                        self._failed(
                            plugin, hook, f"{name!r} is not a name with a callable factory"
                        )
                    elif name in found:
                        self._failed(
                            plugin,
                            hook,
                            f"{kind[:-1]} {name!r} is already registered by {owners[name]}",
                        )
                    else:
                        found[name], owners[name] = factory, plugin
                        self._provide(plugin, kind, name)
            self._cache[kind] = found
        named: dict[str, Callable[..., Any]] = self._cache[kind]
        return dict(named)

    def connectors(self) -> dict[str, hookspecs.ConnectorFactory]:
        return self._named("register_connectors", "connectors")

    def graders(self) -> dict[str, hookspecs.GraderFactory]:
        return self._named("register_graders", "graders")

    def citation_styles(self) -> dict[str, CitationStyle]:
        if "citation_styles" not in self._cache:
            found: dict[str, CitationStyle] = {}
            for plugin, value in self._collect("register_citation_styles"):
                for style in _as_list(value):
                    name = getattr(style, "name", None)
                    if (
                        not isinstance(style, CitationStyle)
                        or not isinstance(name, str)
                        or not name
                    ):
                        self._failed(
                            plugin,
                            "register_citation_styles",
                            f"{style!r} is not a CitationStyle (a name and render(answer))",
                        )
                    elif name in found:
                        self._failed(
                            plugin,
                            "register_citation_styles",
                            f"style {name!r} is registered twice",
                        )
                    else:
                        found[name] = style
                        self._provide(plugin, "citation_styles", name)
            for style in default_styles():  # plain text works even with every plugin off
                found.setdefault(style.name, style)
            self._cache["citation_styles"] = found
        styles: dict[str, CitationStyle] = self._cache["citation_styles"]
        return dict(styles)

    # -- events --------------------------------------------------------------

    def _context(self, question: Question, runtime: RuntimeView | None) -> PluginContext:
        if runtime is None or runtime.plugins is not self:
            runtime = _Alone(self, runtime)
        return plugin_context(runtime, question.place, user=question.asker, scope=question.scope)

    async def before_question(
        self, question: Question, *, runtime: RuntimeView | None = None
    ) -> Question | Refusal:
        """The question as the plugins rewrote it, or the first refusal. Never raises.

        Hooks get a :class:`PluginContext` cut from ``runtime``, never the runtime itself.
        """
        current = question
        context = self._context(question, runtime)
        for impl in self._impls("before_question", call_order=True):
            outcome = await self._call(
                impl, "before_question", {"question": current, "context": context}
            )
            if outcome is _FAILED or outcome is None:
                continue
            if isinstance(outcome, Refusal):
                if not isinstance(outcome.text, str):
                    # a refusal all the same: a rule that fails must not let the question through
                    outcome = replace(outcome, text="")
                text = outcome.text.strip() or "Sorry, I can't answer that here."
                log.info(
                    "plugin %s refused question %s (%s)",
                    impl.plugin_name,
                    question.id,
                    outcome.reason,
                )
                return replace(outcome, text=text, plugin=impl.plugin_name)
            if not isinstance(outcome, Question):
                self._failed(
                    impl.plugin_name,
                    "before_question",
                    f"returned {type(outcome).__name__}, not a Question, a Refusal or None",
                )
                continue
            if not isinstance(outcome.text, str) or not outcome.text.strip():
                self._failed(impl.plugin_name, "before_question", "rewrote the question to nothing")
                continue
            try:
                current = _kept_in_place(current, outcome, impl.plugin_name)
            except (TypeError, AttributeError) as exc:  # a scope or a field of the wrong type
                self._failed(impl.plugin_name, "before_question", exc)
        return current

    async def after_answer(
        self, question: Question, done: Done, *, runtime: RuntimeView | None = None
    ) -> Done:
        """The final answer as the plugins annotated it. Never raises."""
        current = done
        context = self._context(question, runtime)
        for impl in self._impls("after_answer", call_order=True):
            outcome = await self._call(
                impl, "after_answer", {"question": question, "done": current, "context": context}
            )
            if outcome is _FAILED or outcome is None:
                continue
            if not isinstance(outcome, Done):
                self._failed(
                    impl.plugin_name,
                    "after_answer",
                    f"returned {type(outcome).__name__}, not a Done or None",
                )
                continue
            current = outcome
        return current

    # -- reporting -----------------------------------------------------------

    def describe(self) -> list[PluginInfo]:
        """Every plugin found, with its hooks, what it registered and what went wrong."""
        self.commands()
        self.connectors()
        self.graders()
        self.citation_styles()
        return list(self._infos.values())

    def plugin(self, name: str) -> object | None:
        return self._pm.get_plugin(name)


@dataclass(slots=True)
class _Alone:
    """The runtime a context is cut from when the host is called without one (or with a
    runtime around another host): commands come from this host."""

    plugins: PluginHost
    runtime: RuntimeView | None

    @property
    def settings(self) -> Settings:
        return self.runtime.settings if self.runtime is not None else Settings.model_construct()

    @property
    def feedback(self) -> Any:
        return self.runtime.feedback if self.runtime is not None else None


def _kept_in_place(before: Question, after: Question, plugin: str) -> Question:
    """A rewrite may change the text, history and trigger, never who asked, where, or what they may see."""
    scope = after.scope
    if before.scope is not None:
        kept = tuple(c for c in scope if c in before.scope) if scope is not None else before.scope
        if kept != scope:
            log.warning(
                "plugin %s tried to widen the knowledge scope of %s; kept it", plugin, before.id
            )
        scope = kept
    text = after.text.strip()
    if (after.asker, after.place, after.id, after.scope, after.text) == (
        before.asker,
        before.place,
        before.id,
        scope,
        text,
    ):
        return after
    return replace(
        after,
        text=text,
        asker=before.asker,
        place=before.place,
        id=before.id,
        scope=scope,
    )


def _as_list(value: Any, single: type | None = None) -> list[Any]:
    if single is not None and isinstance(value, single):
        return [value]
    if isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping):
        return list(value)
    return [value]


def _import(spec: str) -> object:
    """``package.module`` or ``package.module:attribute``."""
    module_name, _, attr = spec.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


def _distribution(ep: EntryPoint) -> str | None:
    dist = getattr(ep, "dist", None)
    return f"{dist.name} {dist.version}" if dist is not None else None


def _own_distribution() -> str | None:
    try:
        return f"citebot {version('citebot')}"
    except PackageNotFoundError:  # running from a source tree
        return None


def commands_of(plugins: PluginHooks | None) -> Sequence[ChatCommand]:
    """The chat commands of a runtime's plugin host (none without one)."""
    return plugins.commands() if isinstance(plugins, PluginHost) else ()


def _one_line(exc: BaseException) -> str:
    text = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
    if len(text) > 300:
        text = text[:299] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
