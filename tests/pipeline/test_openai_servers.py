"""Real OpenAI-compatible servers: what each rejects, and structured calls each accepts.

The fake's strict modes follow each server's docs and issue tracker (see the
fake's docstring); the client is the real openai SDK under LlamaIndex.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

from connectors.errors import ConnectorError
from connectors.providers.llms import build_llm
from connectors.providers.settings import LLMSettings
from pipeline.graders import GRADE_PROMPT, Relevance
from tests.fakes.openai_server import SERVER_KINDS, FakeOpenAI, ServerKind

TOOL = {"type": "function", "function": {"name": "Relevance", "parameters": {"type": "object"}}}
SCORE = '{"score": 0.8, "reason": "scripted"}'


@pytest.fixture(params=SERVER_KINDS)
def server(request: pytest.FixtureRequest) -> Iterator[FakeOpenAI]:
    with FakeOpenAI(server=request.param) as fake:
        fake.default = SCORE
        yield fake


def post(fake: FakeOpenAI, **extra: Any) -> httpx.Response:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], **extra}
    return httpx.post(f"{fake.base_url}/chat/completions", json=body, timeout=10)


@pytest.mark.parametrize(
    ("kind", "extra", "says"),
    [
        # vllm#9426: the validator's own words
        ("vllm", {"tool_choice": "required"}, "When using `tool_choice`, `tools` must be set."),
        # vllm#30613: without --enable-auto-tool-choice and --tool-call-parser
        ("vllm", {"tools": [TOOL], "tool_choice": "auto"}, "--enable-auto-tool-choice"),
        ("vllm", {"stream_options": {"include_usage": True}}, "`stream=True`"),
        ("openai", {"tool_choice": "required"}, "only allowed when 'tools' are specified"),
        ("openai", {"stream_options": {"include_usage": True}}, "only allowed when 'stream'"),
        # lmstudio-bug-tracker#189
        (
            "lmstudio",
            {"response_format": {"type": "json_object"}},
            "'response_format.type' must be 'json_schema' or 'text'",
        ),
        # llama.cpp#9522: the type is checked, the schema is required
        ("llamacpp", {"response_format": {"type": "grammar"}}, "response_format type must be"),
        ("llamacpp", {"response_format": {"type": "json_schema"}}, "json_schema.schema"),
    ],
)
def test_each_strict_server_rejects_what_the_real_one_rejects(
    kind: ServerKind, extra: dict[str, Any], says: str
) -> None:
    with FakeOpenAI(server=kind) as fake:
        fake.default = "never sent"
        response = post(fake, **extra)
    assert response.status_code == 400
    assert says in response.text


@pytest.mark.parametrize("kind", ["ollama", "llamacpp"])
def test_servers_that_ignore_a_named_tool_choice_answer_in_text(kind: ServerKind) -> None:
    # ollama#8421 and llama.cpp#26535: the forced tool is silently not called
    choice = {"type": "function", "function": {"name": "Relevance"}}
    with FakeOpenAI(server=kind) as fake:
        fake.default = "plain words"
        reply = post(fake, tools=[TOOL], tool_choice=choice).json()
        with FakeOpenAI(server="openai") as openai:
            openai.default = SCORE
            forced = post(openai, tools=[TOOL], tool_choice=choice).json()
    assert reply["choices"][0]["message"]["content"] == "plain words"
    assert "tool_calls" not in reply["choices"][0]["message"]
    assert forced["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] == SCORE


def test_lmstudio_answers_a_required_tool_choice_with_an_empty_message() -> None:
    # lmstudio-bug-tracker#1904
    with FakeOpenAI(server="lmstudio") as fake:
        fake.default = SCORE
        reply = post(fake, tools=[TOOL], tool_choice="required").json()
    assert reply["choices"][0]["message"]["content"] == ""


async def test_structured_calls_are_accepted_by_every_server(server: FakeOpenAI) -> None:
    llm = build_llm(
        LLMSettings(
            provider="openai_compatible", base_url=server.base_url, model="m", max_retries=0
        )
    )
    assert llm is not None
    reply = await llm.astructured_predict(Relevance, GRADE_PROMPT, question="q", passage="p")

    assert reply.score == 0.8
    body = server.requests[-1].body
    assert "tool_choice" not in body and "tools" not in body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["required"] == ["score", "reason"]


@pytest.mark.parametrize(
    ("mode", "asks_with"),
    [
        ("json_object", {"response_format": {"type": "json_object"}}),
        ("tools", {"tool_choice": "required"}),
        ("prompt", {}),
    ],
)
async def test_the_structured_setting_overrides_how_json_is_asked_for(
    mode: str, asks_with: dict[str, Any]
) -> None:
    with FakeOpenAI(server="openai") as fake:
        fake.default = SCORE
        llm = build_llm(
            LLMSettings.model_validate(
                {
                    "provider": "openai_compatible",
                    "base_url": fake.base_url,
                    "max_retries": 0,
                    "structured": mode,
                }
            )
        )
        assert llm is not None
        reply = await llm.astructured_predict(Relevance, GRADE_PROMPT, question="q", passage="p")
        body = fake.requests[-1].body

    assert reply.score == 0.8
    assert {k: body[k] for k in asks_with} == asks_with
    assert ("tools" in body) == (mode == "tools")
    assert "response_format" in body or mode != "json_object"
    assert '"score"' in fake.requests[-1].prompt or mode == "tools"  # the schema, in words


async def test_openai_models_without_function_calling_get_no_bare_tool_choice() -> None:
    # LlamaIndex forces tool_choice for o1-mini without sending tools; OpenAI refuses that
    with FakeOpenAI(server="openai") as openai:
        openai.default = SCORE
        llm = build_llm(
            LLMSettings(
                provider="openai",
                base_url=openai.base_url,
                api_key=SecretStr("sk-test"),
                model="o1-mini",
                max_retries=0,
            )
        )
        assert llm is not None
        reply = await llm.astructured_predict(Relevance, GRADE_PROMPT, question="q", passage="p")
        body = openai.requests[-1].body

    assert reply.score == 0.8
    assert "tool_choice" not in body and openai.requests[-1].rejected is None


def test_an_unknown_openai_model_is_refused_at_start_up() -> None:
    with pytest.raises(ConnectorError, match=r"unknown openai model 'llama3'.*openai_compatible"):
        build_llm(LLMSettings(provider="openai", api_key=SecretStr("sk-test"), model="llama3"))
