"""Settings sections owned by the application layer (platforms, access, limits)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator, model_validator


class SlackSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    bot_token: SecretStr | None = None
    """bot token xoxb-… (secret)"""
    signing_secret: SecretStr | None = None
    """signing secret for HTTP mode (secret)"""
    app_token: SecretStr | None = None
    """app-level token xapp-… for Socket Mode (secret)"""
    api_url: str = "https://slack.com/api/"
    """Web API base URL (proxies, Enterprise gateways, tests)"""
    mode: Literal["socket", "http"] = "socket"
    """'socket' (Socket Mode) or 'http' (POST /slack/events)"""
    host: str = "0.0.0.0"
    """HTTP mode: address to listen on"""
    port: int = Field(3000, ge=1, le=65535)
    """HTTP mode: port"""
    slash_command: str = "/ask"
    """the slash command's name"""
    slash_response: Literal["thread", "ephemeral"] = "thread"
    """slash answers: 'thread' in the channel, or 'ephemeral'"""
    answer_bots: bool = False
    """answer messages from other bots"""
    stream: bool = True
    """stream answers with chat.startStream (else post + chat.update)"""
    update_interval: float = Field(1.0, ge=0.0, description="seconds between chat.update edits")
    allowed_workspaces: list[str] = Field(default_factory=list)
    """team ids the bot answers in (empty: all)"""
    allowed_channels: list[str] = Field(default_factory=list)
    """channel ids the bot answers in (empty: all)"""
    app_name: str = "citebot"
    """the app's name in the manifest and messages"""
    allow_dms: bool = True
    """answer direct messages"""
    followups: bool = Field(True, description="answer plain replies in threads the bot answered")
    followup_scan: bool = Field(
        True,
        description="for an unknown thread, read conversations.replies to see if the bot is in it",
    )
    stream_buffer: int = Field(128, ge=1, description="characters buffered per chat.appendStream")
    public_url: str | None = Field(
        None, description="the HTTPS base Slack reaches in HTTP mode, for the manifest"
    )
    assistant: bool = False
    """the assistant panel (Agents & AI Apps): answer in assistant threads; the manifest enables it"""
    assistant_prompts: list[str] = Field(
        default_factory=lambda: [
            "What can you answer?",
            "Where do I start?",
            "What changed recently?",
        ],
        max_length=4,
        description="suggested prompts shown when an assistant thread opens (Slack shows up to 4)",
    )
    client_id: str | None = Field(
        None,
        description="OAuth client id: install to many workspaces through /slack/install "
        "(HTTP mode, instead of bot_token)",
    )
    client_secret: SecretStr | None = None
    """OAuth client secret (secret)"""
    state_secret: SecretStr | None = Field(
        None,
        description="signs OAuth states so any replica can finish an install (secret); "
        "unset: states are kept once-only in the data dir",
    )
    oauth_scopes: list[str] | None = Field(
        None, description="bot scopes asked for at install (unset: the manifest's)"
    )
    install_path: str = "/slack/install"
    """where a browser starts an OAuth install"""
    redirect_path: str = "/slack/oauth_redirect"
    """the OAuth redirect path (add public_url + it to the app's redirect URLs)"""
    authorize_url: str = "https://slack.com/oauth/v2/authorize"
    """Slack's OAuth consent page (tests point it at a fake)"""
    install_database: SecretStr | None = Field(
        None,
        description="SQLAlchemy async URL of a shared installation store, e.g. "
        "postgresql+asyncpg://… (secret); unset: SQLite in the data dir",
    )

    @field_validator("api_url")
    @classmethod
    def _trailing_slash(cls, value: str) -> str:
        # slack-sdk joins method names with urljoin, which drops a last path segment
        return value if value.endswith("/") else value + "/"

    @field_validator("slash_command", "install_path", "redirect_path")
    @classmethod
    def _leading_slash(cls, value: str) -> str:
        return value if value.startswith("/") else "/" + value

    @property
    def oauth(self) -> bool:
        """Installed through OAuth (a token per workspace) rather than with one bot token."""
        return self.client_id is not None


class DiscordSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    token: SecretStr | None = None
    """bot token (secret)"""
    api_url: str | None = None
    """REST API base URL (Discord-compatible servers, proxies, tests)"""
    gateway_url: str | None = None
    """gateway WebSocket URL"""
    sync_guilds: list[int] = Field(default_factory=list)
    """guild ids to sync app commands to (empty: global)"""
    mention_mode: Literal["thread", "inline"] = "thread"
    """an @mention answers in a new 'thread' or 'inline'"""
    ephemeral: bool = False
    """/ask answers only visible to the asker"""
    edit_interval: float = Field(1.2, ge=0.0)
    """seconds between streaming edits of one message"""
    message_content: bool = True
    """request the privileged Message Content intent"""
    allowed_guilds: list[int] = Field(default_factory=list)
    """guild ids the bot answers in (empty: all)"""
    allowed_channels: list[int] = Field(default_factory=list)
    """channel ids the bot answers in (empty: all)"""
    answer_bots: bool = False
    """answer messages from other bots"""
    shards: Literal["single", "auto"] = "single"
    """'single' client or 'auto' sharding for large bots"""
    application_id: int | None = Field(
        None, description="for invite-url; read from the token if unset"
    )
    sync_commands: bool = True
    """sync app commands at start-up"""
    allow_dms: bool = Field(True, description="answer direct messages")
    thread_archive_minutes: Literal[60, 1440, 4320, 10080] = 1440
    """auto-archive time of threads the bot starts"""
    history_messages: int = Field(50, ge=0, le=100, description="thread messages read for context")
    interaction_margin: float = Field(
        60.0,
        ge=0,
        description="seconds before the 15-min interaction token expires to move to the channel",
    )


class AccessSettings(BaseModel):
    """Who may ask, how much, and which knowledge they may see."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    max_question_chars: int = Field(4000, ge=1)
    """longer questions get a polite refusal"""
    scopes: dict[str, list[str]] = Field(
        default_factory=dict,
        description="place → collections, e.g. {'slack:T1/C2': ['eng'], 'discord:G1': ['docs']}",
    )
    dm_scope: list[str] | None = None
    """collections DMs may search (unset: the default scope)"""
    default_scope: list[str] | None = Field(
        None, description="collections for places with no entry; unset = all collections"
    )


class LimitSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    user_per_minute: float = Field(6.0, ge=0, description="0 disables the per-user bucket")
    user_burst: int = Field(3, ge=1)
    """questions a user may ask at once before the rate applies"""
    channel_per_minute: float = Field(30.0, ge=0)
    """questions per channel per minute; 0 disables"""
    channel_burst: int = Field(10, ge=1)
    """burst size of the per-channel bucket"""
    daily_cap: int = Field(
        0, ge=0, description="questions per workspace or guild per day; 0 = none"
    )
    auto_reply_per_minute: float = Field(4.0, ge=0)
    """unmentioned questions answered per auto-reply channel per minute (beyond it the bot stays silent); 0 disables"""
    auto_reply_burst: int = Field(3, ge=1)
    """burst size of the per-channel auto-reply bucket"""


class OpsSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    redis_url: SecretStr | None = None
    """Redis for dedupe and limits across replicas (secret)"""

    dedupe_ttl: float = Field(600.0, gt=0)
    """seconds a delivered event id is remembered"""
    lease_ttl: float = Field(30.0, gt=0)
    """seconds a claim on a question lasts unless renewed; a crashed replica's question is answered again after it"""
    metrics_port: int = Field(9464, ge=0, le=65535, description="0 disables the ops server")
    metrics_host: str = Field(
        "0.0.0.0", description="address the ops server (/healthz, /readyz, /metrics) binds"
    )
    probe_timeout: float = Field(3.0, gt=0, description="seconds each /readyz check may take")
    log_format: Literal["json", "text"] = "text"
    """'json' (one object per line) or 'text'"""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    """log level"""
    otel: bool = False
    """OpenTelemetry tracing (needs the otel extra)"""

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, value: SecretStr | None) -> SecretStr | None:
        # redis-py refuses any other scheme, but only when the first question arrives
        schemes = ("redis://", "rediss://", "unix://")
        if value is not None and not value.get_secret_value().startswith(schemes):
            raise ValueError("must start with redis://, rediss:// or unix://")
        return value


class PluginSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    load: list[str] = Field(default_factory=list, description="extra plugin modules to load")
    disable: list[str] = Field(default_factory=list, description="plugin names not to load")
    entry_points: bool = True
    """load plugins from the 'citebot' entry point group"""
    hook_timeout: float = Field(
        default=10.0, gt=0, description="seconds a before/after hook may take"
    )
    command_timeout: float = Field(
        default=30.0, gt=0, description="seconds a chat command may take"
    )


class FeedbackSettings(BaseModel):
    """What the bot keeps of its answers and votes, and for how long."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    keep_days: int = Field(0, ge=0)
    """days answers and votes are kept (a running bot drops older ones hourly); 0 keeps them until `citebot feedback purge --days`"""
    hash_users: bool = False
    """store asker and voter ids as salted SHA-256 hashes instead of platform ids"""
    user_salt: SecretStr | None = None
    """salt for hash_users (secret); required when hash_users is on"""
    insights_token: SecretStr | None = None
    """bearer token for the ops server's /insights page (secret); unset = page off"""

    @model_validator(mode="after")
    def _salted(self) -> FeedbackSettings:
        if self.hash_users and self.user_salt is None:
            raise ValueError("feedback.user_salt is required when feedback.hash_users is on")
        return self


class AttachmentSettings(BaseModel):
    """Files attached to a question: which are read, and how much of them."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    read: bool = True
    """read text-like attachments (txt, md, log, csv, json, yaml, pdf) as question context"""
    max_bytes: int = Field(2_000_000, ge=1)
    """larger files are not downloaded; the asker is told so"""
    max_files: int = Field(3, ge=1, le=20)
    """attachments read per question; the asker is told about the rest"""
    max_chars: int = Field(200_000, ge=1000)
    """characters of text kept per file (the rest is left out, and the asker told)"""
