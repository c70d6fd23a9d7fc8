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

so ``json_schema`` is the default here, and ``llm.structured`` overrides it. This
module is imported only when the provider is in use (it loads the openai SDK).
"""

from __future__ import annotations

from typing import Any, Literal

from llama_index.core.prompts import PromptTemplate
from llama_index.core.types import Model
from llama_index.llms.openai_like import OpenAILike

StructuredMode = Literal["json_schema", "json_object", "tools", "prompt"]


class CompatibleLLM(OpenAILike):
    """An OpenAI-compatible server, asked for structured replies in one chosen way.

    - ``json_schema``: ``response_format`` with the reply's JSON schema;
    - ``json_object``: ``response_format: json_object``, the schema in the prompt;
    - ``tools``: one forced tool call (``tools`` and ``tool_choice: required``);
    - ``prompt``: the schema in the prompt, nothing else in the request.

    Whatever the mode, ``tool_choice`` is never sent without ``tools``.
    """

    structured: StructuredMode = "json_schema"

    @classmethod
    def class_name(cls) -> str:
        return "CitebotCompatibleLLM"

    def _should_use_structure_outputs(self) -> bool:
        return self.structured == "json_schema"

    def _get_model_kwargs(self, **kwargs: Any) -> dict[str, Any]:
        request: dict[str, Any] = super()._get_model_kwargs(**kwargs)
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
        reply: Model = super().structured_predict(
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
        reply: Model = await super().astructured_predict(
            output_cls, prompt, llm_kwargs=self._structured_kwargs(llm_kwargs), **prompt_args
        )
        return reply
