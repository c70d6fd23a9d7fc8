"""The root ``Settings``: one nested section per concern.

Sources, strongest first: init arguments, ``CITEBOT_*`` environment variables
(``__`` nests), conventional vendor variables (``SLACK_BOT_TOKEN``…), ``.env``,
``citebot.toml``, then defaults.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from connectors.knowledge.settings import IngestSettings, StoreSettings
from connectors.providers.settings import EmbeddingSettings, LLMSettings, WebSettings
from pipeline.config import PipelineSettings

from .channels import ChannelSettings, check_patterns
from .origins import (
    DELIMITER,
    ENV_PREFIX,
    RANK,
    Origin,
    Origins,
    check_env,
    describe_error,
    dotted,
    env_name,
    flatten,
    read_dotenv,
    read_toml,
    toml_problems,
    without_empty_secrets,
)
from .schema import unknown_keys
from .sections import (
    AccessSettings,
    AttachmentSettings,
    DiscordSettings,
    FeedbackSettings,
    LimitSettings,
    OpsSettings,
    PluginSettings,
    SlackSettings,
)

__all__ = ["DELIMITER", "ENV_PREFIX", "Settings", "SettingsError", "env_name", "load_settings"]

#: Vendor-conventional variables, honoured below their ``CITEBOT_`` spelling.
CONVENTIONAL_ENV: dict[str, tuple[str, str]] = {
    "SLACK_BOT_TOKEN": ("slack", "bot_token"),
    "SLACK_SIGNING_SECRET": ("slack", "signing_secret"),
    "SLACK_APP_TOKEN": ("slack", "app_token"),
    "SLACK_CLIENT_ID": ("slack", "client_id"),
    "SLACK_CLIENT_SECRET": ("slack", "client_secret"),
    "DISCORD_TOKEN": ("discord", "token"),
    "TAVILY_API_KEY": ("web", "tavily_api_key"),
}


class ConventionalEnvSource(PydanticBaseSettingsSource):
    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for var, (section, key) in CONVENTIONAL_ENV.items():
            value = os.environ.get(var)
            if value:
                found.setdefault(section, {})[key] = value
        return found


class TomlSource(TomlConfigSettingsSource):
    """``citebot.toml``, its secrets written as ``""`` left unset."""

    def __call__(self) -> dict[str, Any]:
        return without_empty_secrets(self.settings_cls, super().__call__())


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter=DELIMITER,
        env_file=".env",
        env_file_encoding="utf-8",
        toml_file="citebot.toml",
        extra="ignore",
        validate_default=True,
        # ``KEY=`` is how templates leave a value out (deploy/k8s's Secret, a .env): unset
        env_ignore_empty=True,
    )

    data_dir: Path = Field(Path(".citebot"), description="where the store and votes live")
    store: StoreSettings = Field(default_factory=StoreSettings)
    embeddings: EmbeddingSettings = Field(default_factory=EmbeddingSettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    ingest: IngestSettings = Field(default_factory=IngestSettings)
    pipeline: PipelineSettings = Field(default_factory=PipelineSettings)
    slack: SlackSettings = Field(default_factory=SlackSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    access: AccessSettings = Field(default_factory=AccessSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    ops: OpsSettings = Field(default_factory=OpsSettings)
    plugins: PluginSettings = Field(default_factory=PluginSettings)
    feedback: FeedbackSettings = Field(default_factory=FeedbackSettings)
    attachments: AttachmentSettings = Field(default_factory=AttachmentSettings)
    channels: Annotated[dict[str, ChannelSettings], AfterValidator(check_patterns)] = Field(
        default_factory=dict,
        description='per-channel settings by place pattern, e.g. [channels."slack:*/#help-*"] '
        "(see docs: Per-channel settings)",
    )
    _origins: Origins = PrivateAttr(default_factory=Origins)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (
            init_settings,
            env_settings,
            ConventionalEnvSource(settings_cls),
            dotenv_settings,
            TomlSource(settings_cls),
        )

    @model_validator(mode="after")
    def _openai_key(self) -> Settings:
        # OPENAI_API_KEY must never reach a third-party "compatible" server
        if self.llm.provider == "openai" and self.llm.api_key is None:
            key = os.environ.get("OPENAI_API_KEY")
            if key:
                self.llm.api_key = SecretStr(key)
        return self

    @model_validator(mode="after")
    def _complete(self) -> Settings:
        """What the providers would refuse at the first question, refused with the settings."""
        llm, store = self.llm, self.store
        if llm.provider == "openai_compatible" and not llm.base_url:
            raise ValueError(
                "llm.base_url is required when llm.provider is 'openai_compatible' "
                "(for example http://localhost:11434/v1 for Ollama)"
            )
        if llm.provider == "openai" and llm.api_key is None:
            raise ValueError(
                "llm.api_key (or OPENAI_API_KEY) is required when llm.provider is 'openai'"
            )
        if llm.provider == "anthropic" and llm.api_key is None:
            raise ValueError("llm.api_key is required when llm.provider is 'anthropic'")
        if store.kind == "weaviate" and not store.weaviate_url:
            raise ValueError("store.weaviate_url is required when store.kind is 'weaviate'")
        return self

    @property
    def origins(self) -> Origins:
        """Which source set each value (filled in by ``load_settings``)."""
        return self._origins

    @origins.setter
    def origins(self, value: Origins) -> None:
        self._origins = value

    def masked(self) -> dict[str, Any]:
        """The effective settings as JSON-able data, secrets shown as ``**********``."""
        return self.model_dump(mode="json")


class SettingsError(Exception):
    """Bad settings; ``lines`` holds one readable line per problem."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def _sources(overrides: dict[str, Any]) -> tuple[list[str], Origins]:
    """Every source read once more: unknown keys refused, each value's origin recorded."""
    config = Settings.model_config
    toml_file = Path(str(config.get("toml_file") or "citebot.toml"))
    toml_data, problems = read_toml(toml_file)
    toml_data = without_empty_secrets(Settings, toml_data)
    problems += toml_problems(Settings, toml_data, str(toml_file))
    entries = [
        Origin(path, str(toml_file), dotted(path), RANK["citebot.toml"])
        for path in flatten(Settings, toml_data)
    ]
    env_file = Path(str(config.get("env_file") or ".env"))
    dotenv_problems, names = check_env(Settings, read_dotenv(env_file), f"{env_file}: ")
    problems += dotenv_problems
    entries += [Origin(p, str(env_file), n, RANK[".env"]) for p, n in names.items()]
    for var, path in CONVENTIONAL_ENV.items():
        if os.environ.get(var):
            entries.append(Origin(path, "env", var, RANK["vendor"]))
    env_problems, names = check_env(Settings, os.environ, "env ")
    problems += env_problems
    entries += [Origin(p, "env", n, RANK["env"]) for p, n in names.items()]
    for unknown in unknown_keys(Settings, overrides):
        problems.append(f"argument {dotted(unknown.path)}: no such setting")
    entries += [
        Origin(p, "argument", dotted(p), RANK["argument"]) for p in flatten(Settings, overrides)
    ]
    return problems, Origins(entries)


def load_settings(**overrides: Any) -> Settings:
    """The settings from every source; unknown keys and bad values raise ``SettingsError``."""
    problems, origins = _sources(overrides)
    if problems:
        raise SettingsError(problems)
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        raise SettingsError([describe_error(Settings, e, origins) for e in exc.errors()]) from None
    except (ValueError, OSError) as exc:
        raise SettingsError([f"settings: {exc}"]) from None
    settings.origins = origins
    return settings
