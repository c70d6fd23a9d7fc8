"""Pipeline knobs. Passed in by the caller; the pipeline never reads the environment."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class PipelineSettings(BaseModel):
    model_config = ConfigDict(use_attribute_docstrings=True)

    upper: float = Field(0.7, ge=0, le=1)
    """CRAG: best grade above this is 'correct'"""
    lower: float = Field(0.3, ge=0, le=1)
    """CRAG: best grade below this is 'incorrect'"""
    top_k: int = Field(6, ge=1, le=100)
    """chunks retrieved per question"""
    supplementary: int = Field(0, ge=0, le=20)
    """chunks retrieved after the top_k: graded and citable, but only the top_k decide whether the knowledge base answers"""
    max_retries: int = Field(2, ge=0, le=10)
    """self-check retries (regenerate, rewrite, web) per question"""
    grader: str = "embedding"
    """'embedding', 'llm' or a plugin grader's name"""
    grade_timeout: float = Field(20.0, gt=0)
    """seconds for grading"""
    generate_timeout: float = Field(60.0, gt=0)
    """seconds for generating an answer"""
    check_timeout: float = Field(20.0, gt=0)
    """seconds for the self-check"""
    web_timeout: float = Field(15.0, gt=0)
    """seconds for a web search"""
    rewrite_timeout: float = Field(20.0, gt=0)
    """condensing and query rewrites"""
    quote_threshold: float = Field(90.0, ge=0, le=100)
    """fuzzy score (0-100) a quote needs to count as verified"""
    quote_policy: Literal["mark", "unquote"] = "mark"
    """unverified quotes: 'mark' them or 'unquote' them"""
    merge_fragments: bool = False
    """one footnote per document instead of per section"""
    extractive_sentences: int = Field(8, ge=1, le=10)
    """sentences in an offline (extractive) answer"""
    extract_support_weight: float = Field(0.4, ge=0, le=2)
    """offline answers: how much a sentence loses per unit of its passage's support below the best passage's"""
    passage_lead_margin: float = Field(0.1, ge=0, le=2)
    """offline answers: when one passage's support leads every other's by at least this, its lead counts twice in choosing sentences (0: off)"""
    evidence_threshold: float = Field(0.84, ge=0, le=2)
    """support the best passage needs before the knowledge base answers (see pipeline/evidence.py)"""
    evidence_capability_threshold: float = Field(0.92, ge=0, le=2)
    """the same, for a question whether something can be done ("can I …?", "does it …?"): documentation says what a tool does and seldom what it does not, so a passage on the topic reads as a yes"""
    evidence_coverage_weight: float = Field(0.5, ge=0, le=2)
    """weight of the IDF-weighted share of the question's terms a passage contains"""
    evidence_unknown_weight: float = Field(0.7, ge=0, le=2)
    """weight of the question's terms that no chunk of the knowledge base contains"""
    evidence_word_factor: float = Field(0.5, ge=0, le=1)
    """share of that weight for an unknown everyday word (a name, acronym or number counts in full)"""
    evidence_subject_share: float = Field(0.2, ge=0, le=1)
    """a name the question writes that this share of the chunks have is the docs' subject, which the passage that answers need not repeat"""
    evidence_identifier_share: float = Field(0.02, ge=0, le=1)
    """a code name with an underscore (``log_level``) that the question spells must be in the passage that answers, unless this share of the chunks (and at least three) have it: the docs' everyday vocabulary (Jekyll's ``_site`` folder)"""
    evidence_thing_share: float = Field(0.8, ge=0, le=1)
    """a question whether there is a thing ("is there a Helm chart"), or how to run something as one ("as a Windows service"), is answered only from a passage naming this share of the thing's terms (IDF-weighted; 0: off)"""
    closeness_weight: float = Field(6.0, ge=0, le=20)
    """offline answers: how much a passage's word-for-word closeness to the question (pipeline/closeness.py) adds to its support in ordering the passages an answer is made from (0: off)"""
    closest_match: bool = True
    """after "I couldn't find this", name the closest passage on the topic (no footnote, no link)"""
    history_tokens: int = Field(1500, ge=0)
    """token budget for the thread history a question carries (every platform)"""
    speculate: bool = False
    """with the LLM grader, start the answer while it grades (used if it keeps the same passages, else one prompt's tokens are wasted)"""

    @model_validator(mode="after")
    def _ordered(self) -> PipelineSettings:
        if self.lower > self.upper:
            raise ValueError(f"lower ({self.lower}) must not exceed upper ({self.upper})")
        return self
