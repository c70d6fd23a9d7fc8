"""Settings sections owned by the application layer (platforms, access, limits)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator


class SlackSettings(BaseModel):
    bot_token: SecretStr | None = None
    signing_secret: SecretStr | None = None
    app_token: SecretStr | None = None
    api_url: str = "https://slack.com/api/"
    mode: Literal["socket", "http"] = "socket"
    host: str = "0.0.0.0"
    port: int = Field(3000, ge=1, le=65535)
    slash_command: str = "/ask"
    slash_response: Literal["thread", "ephemeral"] = "thread"
    answer_bots: bool = False
    stream: bool = True
    update_interval: float = Field(1.0, ge=0.0, description="seconds between chat.update edits")
    allowed_workspaces: list[str] = Field(default_factory=list)
    allowed_channels: list[str] = Field(default_factory=list)
    app_name: str = "citebot"
    allow_dms: bool = True
    followups: bool = Field(True, description="answer plain replies in threads the bot answered")
    followup_scan: bool = Field(
        True, description="for an unknown thread, read conversations.replies to see if the bot is in it"
    )
    history_tokens: int = Field(2000, ge=0, description="token budget for thread history")
    stream_buffer: int = Field(128, ge=1, description="characters buffered per chat.appendStream")
    public_url: str | None = Field(
        None, description="the HTTPS base Slack reaches in HTTP mode, for the manifest"
    )

    @field_validator("api_url")
    @classmethod
    def _trailing_slash(cls, value: str) -> str:
        # slack-sdk joins method names with urljoin, which drops a last path segment
        return value if value.endswith("/") else value + "/"

    @field_validator("slash_command")
    @classmethod
    def _leading_slash(cls, value: str) -> str:
        return value if value.startswith("/") else "/" + value


class DiscordSettings(BaseModel):
    token: SecretStr | None = None
    api_url: str | None = None
    gateway_url: str | None = None
    sync_guilds: list[int] = Field(default_factory=list)
    mention_mode: Literal["thread", "inline"] = "thread"
    ephemeral: bool = False
    edit_interval: float = Field(1.2, ge=0.0)
    message_content: bool = True
    allowed_guilds: list[int] = Field(default_factory=list)
    allowed_channels: list[int] = Field(default_factory=list)
    answer_bots: bool = False
    shards: Literal["single", "auto"] = "single"
    application_id: int | None = Field(None, description="for invite-url; read from the token if unset")
    sync_commands: bool = True
    allow_dms: bool = Field(True, description="answer direct messages")
    thread_archive_minutes: Literal[60, 1440, 4320, 10080] = 1440
    history_messages: int = Field(50, ge=0, le=100, description="thread messages read for context")
    interaction_margin: float = Field(
        60.0, ge=0, description="seconds before the 15-min interaction token expires to move to the channel"
    )


class AccessSettings(BaseModel):
    """Who may ask, how much, and which knowledge they may see."""

    max_question_chars: int = Field(4000, ge=1)
    scopes: dict[str, list[str]] = Field(
        default_factory=dict,
        description="place → collections, e.g. {'slack:T1/C2': ['eng'], 'discord:G1': ['docs']}",
    )
    dm_scope: list[str] | None = None
    default_scope: list[str] | None = Field(
        None, description="collections for places with no entry; unset = all collections"
    )


class LimitSettings(BaseModel):
    user_per_minute: float = Field(6.0, ge=0, description="0 disables the per-user bucket")
    user_burst: int = Field(3, ge=1)
    channel_per_minute: float = Field(30.0, ge=0)
    channel_burst: int = Field(10, ge=1)
    daily_cap: int = Field(0, ge=0, description="questions per workspace or guild per day; 0 = none")


class OpsSettings(BaseModel):
    redis_url: SecretStr | None = None
    dedupe_ttl: float = Field(600.0, gt=0)
    metrics_port: int = Field(9464, ge=0, le=65535, description="0 disables the ops server")
    metrics_host: str = Field("0.0.0.0", description="address the ops server (/healthz, /readyz, /metrics) binds")
    probe_timeout: float = Field(3.0, gt=0, description="seconds each /readyz check may take")
    log_format: Literal["json", "text"] = "text"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    otel: bool = False


class PluginSettings(BaseModel):
    load: list[str] = Field(default_factory=list, description="extra plugin modules to load")
    disable: list[str] = Field(default_factory=list, description="plugin names not to load")
    entry_points: bool = True
    hook_timeout: float = Field(default=10.0, gt=0, description="seconds a before/after hook may take")
    command_timeout: float = Field(default=30.0, gt=0, description="seconds a chat command may take")
