from __future__ import annotations

import pytest

from citations import canonical_url, is_refusal


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTPS://Example.COM:443/a/?utm_source=x&b=2&a=1", "https://example.com/a?a=1&b=2"),
        ("http://example.com:80", "http://example.com/"),
        ("http://example.com/", "http://example.com/"),
        ("http://example.com:8080/docs/", "http://example.com:8080/docs"),
        ("https://x.com/p?fbclid=1&gclid=2&UTM_medium=m&q=1", "https://x.com/p?q=1"),
        ("https://x.com/a.html#chap1", "https://x.com/a.html#chap1"),
        ("https://x.com/a#sec:~:text=hello", "https://x.com/a#sec"),
        ("a.html#chap2", "a.html#chap2"),
        ("file:///srv/docs/guide.md#install", "file:///srv/docs/guide.md#install"),
        ("  https://x.com  ", "https://x.com/"),
        ("http://[::1", "http://[::1"),  # malformed: returned as written
    ],
)
def test_canonical_url(url: str, canonical: str) -> None:
    assert canonical_url(url) == canonical


def test_fragments_kept_or_merged() -> None:
    assert canonical_url("https://x.com/a.html#chap1") != canonical_url(
        "https://x.com/a.html#chap2"
    )
    assert (
        canonical_url("https://x.com/a.html#chap1", merge_fragments=True) == "https://x.com/a.html"
    )
    assert canonical_url("a.html#chap1", merge_fragments=True) == "a.html"


@pytest.mark.parametrize(
    "text",
    [
        "I couldn't find this in the knowledge base.",
        "I could not find any information about quotas [1].",
        "The provided sources do not mention the price.",
        "I don't know.",
        "Sorry, this cannot be answered from the documents.",
        "見つかりませんでした。",
        "找不到相关信息。",
        "관련 정보를 찾을 수 없습니다.",
        # the markers cite the refusal itself, or nothing a reader could take as a claim
        "I couldn't find this in the knowledge base [1][2].",
        "I couldn't find this in the knowledge base [1], [2].",
        "The sources [1] do not mention the price.",
        # wordings models use as often (seen from a local model in session 45)
        "I'm not able to find that in the sources [1].",
        "The documentation does not mention how to rotate keys [1].",
        "The docs don't say how to do it.",
        "This isn't covered in the sources.",
        "There is no mention of key rotation in the sources.",
        "None of the sources explain how to rotate keys.",
        "Nothing in the sources answers this.",
        "The answer is not in the sources.",
        "The sources provided do not contain that information.",
    ],
)
def test_refusals(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize(
    "text",
    [
        "Quotas reset daily [1].",
        "",
        "The API supports streaming [1]. " * 10 + "The docs don't mention pricing, though.",
        "Not found errors mean the path is wrong [2].",
        # a cited claim answers, whatever the answer says it could not find besides
        "Yes[3]. I couldn't find more.",
        "Yes.[3] I couldn't find more.",
        "I couldn't find the exact limit. The docs say keys expire after a day [1].",
        "None of the flags are required; run it plainly [1].",
        "Nothing in the config needs changing [1].",
        "Keys are not covered by the warranty [1].",
    ],
)
def test_answers_are_not_refusals(text: str) -> None:
    assert not is_refusal(text)
