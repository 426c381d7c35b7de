"""Refusal detection (pure: standard library only, no Django).

A *refusal* is an answer in which the system declines to answer ("I'm sorry, I
cannot identify audio", "抱歉，我无法识别", "죄송합니다. 답변할 수 없습니다") rather than
giving an answer, right or wrong. SEA-SpeechBench (Fig. 4) reports each system's
refusal rate next to its accuracy on the answers it did not refuse; this module
decides which answers are refusals, with the phrase that decided.

Two kinds of evidence, in English, Chinese, Japanese, Korean, Thai, Vietnamese,
Indonesian/Malay and Filipino:

* an **inability** phrase: "I cannot/can't/am unable to" + answer/identify/help/...,
  "as an AI", 无法/不能 + 回答/识别/..., 할 수 없, ไม่สามารถ, không thể, tidak dapat/bisa;
  these count anywhere in the answer;
* an **apology** opening ("I'm sorry", "I apologize", 抱歉, 对不起, 申し訳, 죄송,
  ขออภัย, ขอโทษ, xin lỗi, maaf, paumanhin): counts only at the start and only when the
  answer says nothing else; with an inability phrase the inability decides. "Sorry,
  I think it's Paris" and "Sorry, Paris" are answers, not refusals.

Hedges ("I'm not sure, maybe Paris", "I cannot be certain, but ...") are answers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["Refusal", "detect_refusal", "is_refusal"]

_EN_VERBS = (
    r"(?:answer|respond|identify|determine|tell|help|assist|provide|hear|listen|play|process|"
    r"access|analy[sz]e|recogni[sz]e|transcribe|interpret|comply|fulfil+|do that|understand the audio|"
    r"make out|say|guess)"
)

_INABILITY = [
    # English
    rf"\bi\s*(?:cannot|can\s*not|can'?t|am\s+(?:not\s+)?(?:un)?able\s+to|'m\s+(?:not\s+)?(?:un)?able\s+to|"
    rf"am\s+not\s+able\s+to|won'?t\s+be\s+able\s+to|do\s+not\s+have\s+the\s+ability\s+to)\s+{_EN_VERBS}",
    r"\bas an (?:ai|a\.i\.|artificial intelligence|ai language model|language model)\b",
    r"\bi (?:do not|don'?t) have (?:access to|the ability to) (?:the )?(?:audio|sound|recording|clip)",
    r"\b(?:unable|not able) to (?:process|hear|listen to|play|access|analy[sz]e) (?:the |this )?(?:audio|sound|recording|clip)",
    # Chinese
    r"(?:无法|不能|没法|無法)(?:回答|确定|確定|识别|識別|判断|判斷|提供|听|聽|帮|幫|辨|得知|理解|处理|處理|分析|播放|访问|訪問)",
    r"作为(?:一个)?(?:人工智能|AI|ai|语言模型)",
    # Japanese
    r"(?:お答え|回答|特定|判断|識別|認識)(?:することは|は)?できません",
    # Korean
    r"(?:답변|대답|확인|식별|판단|제공|인식|분석|재생|도와드릴)\S{0,3}\s*수\s*없",
    r"할\s*수\s*없습니다",
    # Thai
    r"ไม่สามารถ",
    # Vietnamese
    r"\bkhông thể (?:trả lời|xác định|nhận diện|nhận dạng|nghe|giúp|cung cấp|phân tích|đoán)",
    # Indonesian / Malay
    r"\b(?:tidak|tak) (?:dapat|bisa|boleh|mampu) (?:menjawab|mengidentifikasi|menentukan|mendengar|membantu|memberikan|menganalisis|mengenali)",
    # Filipino
    r"\bhindi ko (?:masagot|matukoy|marinig|kayang sagutin)",
]

_APOLOGY = [
    r"^(?:i'?m|i am) (?:so |very |really )?sorry\b",
    r"^sorry\b",
    r"^(?:i )?apologi[sz]e\b",
    r"^my apologies\b",
    r"^(?:很)?抱歉",
    r"^对不起",
    r"^對不起",
    r"^(?:申し訳|すみません|ごめんなさい)",
    r"^죄송",
    r"^미안",
    r"^(?:ขออภัย|ขอโทษ)",
    r"^xin lỗi\b",
    r"^(?:mohon )?maaf\b",
    r"^(?:paumanhin|pasensya)\b",
]

_INABILITY_RE = [re.compile(p, re.IGNORECASE) for p in _INABILITY]
_APOLOGY_RE = [re.compile(p, re.IGNORECASE) for p in _APOLOGY]
#: What may follow an apology that stands alone ("I'm sorry about that.", "죄송합니다").
_FILLER = re.compile(
    r"^[\s,.!]*(?:about that|for that|but no|합니다|해요|하지만|ครับ|ค่ะ|คะ|nhé|ya|po|ございません|"
    r"です|でした|了|啊)?", re.IGNORECASE,
)


@dataclass(frozen=True)
class Refusal:
    """Why an answer is a refusal: which kind of phrase, and the text it matched."""

    kind: str      # "inability" or "apology"
    phrase: str


def _clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text or "").strip()
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    return re.sub(r"\s+", " ", text).lower()


def detect_refusal(text: str) -> Refusal | None:
    """The refusal evidence in ``text``, or None if it is an answer (or empty)."""
    clean = _clean(text)
    if not clean:
        return None
    for pattern in _INABILITY_RE:
        match = pattern.search(clean)
        if match:
            return Refusal("inability", match.group(0))
    for pattern in _APOLOGY_RE:
        match = pattern.search(clean)
        if match:
            rest = _FILLER.sub("", clean[match.end():]).strip(" ,.!。，、！？?~")
            if not rest:
                return Refusal("apology", match.group(0))
            return None
    return None


def is_refusal(text: str) -> bool:
    """Whether ``text`` declines to answer (see :func:`detect_refusal`)."""
    return detect_refusal(text) is not None
