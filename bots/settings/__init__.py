"""The root ``Settings``: one nested section per concern.

Sources, strongest first: init arguments, ``CITEBOT_*`` environment variables
(``__`` nests), conventional vendor variables (``SLACK_BOT_TOKEN``…), ``.env``,
``citebot.toml``, then defaults.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, model_validator
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

from .sections import (
    AccessSettings,
    DiscordSettings,
    LimitSettings,
    OpsSettings,
    PluginSettings,
    SlackSettings,
)

__all__ = ["Settings", "SettingsError", "env_name", "load_settings"]

ENV_PREFIX = "CITEBOT_"
DELIMITER = "__"

#: Vendor-conventional variables, honoured below their ``CITEBOT_`` spelling.
CONVENTIONAL_ENV: dict[str, tuple[str, str]] = {
    "SLACK_BOT_TOKEN": ("slack", "bot_token"),
    "SLACK_SIGNING_SECRET": ("slack", "signing_secret"),
    "SLACK_APP_TOKEN": ("slack", "app_token"),
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


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter=DELIMITER,
        env_file=".env",
        env_file_encoding="utf-8",
        toml_file="citebot.toml",
        extra="ignore",
        validate_default=True,
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
            TomlConfigSettingsSource(settings_cls),
        )

    @model_validator(mode="after")
    def _openai_key(self) -> Settings:
        # OPENAI_API_KEY must never reach a third-party "compatible" server
        if self.llm.provider == "openai" and self.llm.api_key is None:
            key = os.environ.get("OPENAI_API_KEY")
            if key:
                self.llm.api_key = SecretStr(key)
        return self

    def masked(self) -> dict[str, Any]:
        """The effective settings as JSON-able data, secrets shown as ``**********``."""
        return self.model_dump(mode="json")


class SettingsError(Exception):
    """Bad settings; ``lines`` holds one readable line per problem."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def env_name(path: tuple[str | int, ...]) -> str:
    keys = [str(p) for p in path if not isinstance(p, int)]
    if len(keys) == 1:
        return ENV_PREFIX + keys[0].upper()
    return ENV_PREFIX + DELIMITER.join(k.upper() for k in keys)


def _describe(error: Any) -> str:
    loc = tuple(p for p in error["loc"] if p not in ("function-after",))
    dotted = ".".join(str(p) for p in loc) or "settings"
    msg = error["msg"]
    if "input" in error and not isinstance(error["input"], dict | list):
        shown = error["input"]
        msg = f"{msg} (got {shown!r})"
    return f"setting {dotted}: {msg} [env {env_name(loc)}]"


def load_settings(**overrides: Any) -> Settings:
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        raise SettingsError([_describe(e) for e in exc.errors()]) from None
    except (ValueError, OSError) as exc:
        raise SettingsError([f"settings: {exc}"]) from None
