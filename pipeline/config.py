"""Pipeline knobs. Passed in by the caller; the pipeline never reads the environment."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator


class PipelineSettings(BaseModel):
    upper: float = Field(0.7, ge=0, le=1, description="CRAG: best grade above this is 'correct'")
    lower: float = Field(0.3, ge=0, le=1, description="CRAG: best grade below this is 'incorrect'")
    top_k: int = Field(6, ge=1, le=100)
    max_retries: int = Field(2, ge=0, le=10)
    grader: str = Field("embedding", description="'embedding', 'llm' or a plugin grader's name")
    grade_timeout: float = Field(20.0, gt=0)
    generate_timeout: float = Field(60.0, gt=0)
    check_timeout: float = Field(20.0, gt=0)
    web_timeout: float = Field(15.0, gt=0)
    rewrite_timeout: float = Field(20.0, gt=0, description="condensing and query rewrites")
    quote_threshold: float = Field(90.0, ge=0, le=100)
    quote_policy: Literal["mark", "unquote"] = "mark"
    merge_fragments: bool = False
    extractive_sentences: int = Field(4, ge=1, le=10, description="sentences in an offline (extractive) answer")
    history_tokens: int = Field(1500, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> PipelineSettings:
        if self.lower > self.upper:
            raise ValueError(f"lower ({self.lower}) must not exceed upper ({self.upper})")
        return self
