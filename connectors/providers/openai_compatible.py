"""LlamaIndex's ``OpenAILike`` with structured calls that real local servers accept.

LlamaIndex asks for structured replies (the grader's score, the answer check's
verdict) by forcing a tool call: it sends ``tool_choice: "required"``, and when
the model is not marked as function-calling it sends that without ``tools``.
vLLM rejects exactly that with a 400, OpenAI too. Servers differ in what they do
accept, as their docs and issue trackers describe:

============  ===========  ===========  ==============================================
server        json_schema  json_object  tools + tool_choice
============  ===========  ===========  ==============================================
vLLM          yes          yes          needs --enable-auto-tool-choice and a parser
Ollama        yes          yes          tool_choice ignored: may answer in text
llama.cpp     yes          yes          named tool_choice falls back to auto
LM Studio     yes          400          "required" returns an empty message
============  ===========  ===========  ==============================================

so ``json_schema`` is the default here, and ``llm.structured`` overrides it. For
OpenAI itself LlamaIndex's own choice stands unless overridden (JSON schema for the
models that support it, a forced tool call for the others), minus the bare
``tool_choice`` it sends for models without function calling (o1-mini, for one).
This module is imported only when a provider is in use (it loads the openai SDK).
"""

from __future__ import annotations

from typing import Any, Literal

from llama_index.core.prompts import PromptTemplate
from llama_index.core.types import Model
from llama_index.llms.openai import OpenAI
from llama_index.llms.openai_like import OpenAILike

StructuredMode = Literal["json_schema", "json_object", "tools", "prompt"]


class _StructuredCalls:
    """How structured replies are asked for; shared by the two classes below.

    - ``json_schema``: ``response_format`` with the reply's JSON schema;
    - ``json_object``: ``response_format: json_object``, the schema in the prompt;
    - ``tools``: one forced tool call (``tools`` and ``tool_choice: required``);
    - ``prompt``: the schema in the prompt, nothing else in the request;
    - ``None``: LlamaIndex's own choice.

    Whatever the mode, ``tool_choice`` is never sent without ``tools``.
    """

    structured: StructuredMode | None

    def _should_use_structure_outputs(self) -> bool:
        if self.structured is None:
            chosen: bool = super()._should_use_structure_outputs()  # type: ignore[misc]
            return chosen
        return self.structured == "json_schema"

    def _get_model_kwargs(self, **kwargs: Any) -> dict[str, Any]:
        request: dict[str, Any] = super()._get_model_kwargs(**kwargs)  # type: ignore[misc]
        if not request.get("tools"):
            request.pop("tool_choice", None)
            request.pop("parallel_tool_calls", None)
        return request

    def _structured_kwargs(self, llm_kwargs: dict[str, Any] | None) -> dict[str, Any]:
        request = dict(llm_kwargs or {})
        if self.structured == "json_object":
            request["response_format"] = {"type": "json_object"}
        return request

    def structured_predict(
        self,
        output_cls: type[Model],
        prompt: PromptTemplate,
        llm_kwargs: dict[str, Any] | None = None,
        **prompt_args: Any,
    ) -> Model:
        reply: Model = super().structured_predict(  # type: ignore[misc]
            output_cls, prompt, llm_kwargs=self._structured_kwargs(llm_kwargs), **prompt_args
        )
        return reply

    async def astructured_predict(
        self,
        output_cls: type[Model],
        prompt: PromptTemplate,
        llm_kwargs: dict[str, Any] | None = None,
        **prompt_args: Any,
    ) -> Model:
        reply: Model = await super().astructured_predict(  # type: ignore[misc]
            output_cls, prompt, llm_kwargs=self._structured_kwargs(llm_kwargs), **prompt_args
        )
        return reply


class CompatibleLLM(_StructuredCalls, OpenAILike):
    """An OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio…)."""

    structured: StructuredMode | None = "json_schema"

    @classmethod
    def class_name(cls) -> str:
        return "CitebotCompatibleLLM"


class CitebotOpenAI(_StructuredCalls, OpenAI):
    """OpenAI's API."""

    structured: StructuredMode | None = None

    @classmethod
    def class_name(cls) -> str:
        return "CitebotOpenAI"
