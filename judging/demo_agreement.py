"""A judge-human study on the demo (pure: standard library only, no Django).

Builds what ``manage.py judging_demo_agreement`` loads to reproduce the *shape* of
SEA-SpeechBench's Table 5 (judges against native-speaker labels, by language and
by prompt language) and Table 14 (model rankings under two judges):

* :func:`bank_rows` -- six of the demo's audio questions (beeps, keypad tones,
  metronome, Morse, an interval) asked in Thai, Vietnamese, Indonesian and Chinese
  (``metadata.language``, ``metadata.task``); answerlines accept the English and
  the native answer;
* :func:`model_outputs` -- three simulated audio models, each under two
  conditions: ``eng-prompt`` (instructed in English, answers in English) and
  ``native-prompt`` (instructed in the question's language, answers in it); each
  has its own accuracy and refusal rate per condition, and a row's simulated truth;
* :func:`human_labels` -- native-speaker labels (truth with a little annotator
  noise, and a 0-5 quality score) for a seeded sample of the answers;
* :func:`simulated_judge_reply` -- what a simulated LLM judge answers to one chat
  request: it reads the answerline and the answer from the prompt, decides, then
  errs at a rate that depends on the judge model and on whether the answer is in
  English or not (``JUDGES``). Served by ``judging.demo_llm`` (or by the tests'
  fake OpenAI-compatible server) as an OpenAI-compatible endpoint.

Everything is seeded: the same seed gives the same study.
"""

from __future__ import annotations

import hashlib
import json
import random
import re

__all__ = ["CONDITIONS", "JUDGES", "LANGUAGES", "SYSTEMS", "bank_rows", "human_labels",
           "model_outputs", "simulated_judge_reply"]

LANGUAGES = ("th", "vi", "id", "zh")
CONDITIONS = ("eng-prompt", "native-prompt")

#: Simulated judge models: error rate on English answers, on native-language answers.
JUDGES = {"judge-a": (0.04, 0.08), "judge-b": (0.06, 0.30)}

#: Simulated systems: condition -> (P(correct), P(refusal)).
SYSTEMS = {
    "alm-large": {"eng-prompt": (0.85, 0.02), "native-prompt": (0.70, 0.05)},
    "alm-medium": {"eng-prompt": (0.65, 0.05), "native-prompt": (0.45, 0.15)},
    "alm-small": {"eng-prompt": (0.45, 0.10), "native-prompt": (0.25, 0.30)},
}

# Question: (demo audio id, task, English prompt, English answer, digits or "",
#            {lang: (prompt, answer)}, {lang or "en": [wrong answers]})
_QUESTIONS = [
    ("beeps-3", "counting", "How many beeps do you hear?", "three", "3",
     {"th": ("คุณได้ยินเสียงบี๊บกี่ครั้ง", "สาม"), "vi": ("Bạn nghe thấy bao nhiêu tiếng bíp?", "ba"),
      "id": ("Berapa bunyi bip yang Anda dengar?", "tiga"), "zh": ("你听到几声哔声？", "三")},
     {"en": ["two", "four"], "th": ["สอง", "สี่"], "vi": ["hai", "bốn"], "id": ["dua", "empat"], "zh": ["两", "四"]}),
    ("beeps-5", "counting", "Count the beeps. How many are there?", "five", "5",
     {"th": ("นับเสียงบี๊บ มีกี่ครั้ง", "ห้า"), "vi": ("Hãy đếm tiếng bíp. Có bao nhiêu?", "năm"),
      "id": ("Hitung bunyi bipnya. Ada berapa?", "lima"), "zh": ("数一数哔声，一共有几声？", "五")},
     {"en": ["four", "six"], "th": ["สี่", "หก"], "vi": ["bốn", "sáu"], "id": ["empat", "enam"], "zh": ["四", "六"]}),
    ("dtmf-uk", "geography", "This emergency number is dialled on a keypad. Which country uses it?",
     "United Kingdom", "",
     {"th": ("หมายเลขฉุกเฉินนี้ถูกกดบนแป้น ประเทศใดใช้หมายเลขนี้", "สหราชอาณาจักร"),
      "vi": ("Số khẩn cấp này được bấm trên bàn phím. Nước nào dùng số này?", "Vương quốc Anh"),
      "id": ("Nomor darurat ini ditekan pada papan tombol. Negara mana yang memakainya?", "Inggris"),
      "zh": ("这个紧急号码在键盘上拨出。哪个国家使用它？", "英国")},
     {"en": ["Australia", "United States"], "th": ["ออสเตรเลีย", "สหรัฐอเมริกา"], "vi": ["Úc", "Hoa Kỳ"],
      "id": ["Australia", "Amerika Serikat"], "zh": ["澳大利亚", "美国"]}),
    ("tempo-60", "tempo", "How many beats per minute does this click track play?", "sixty", "60",
     {"th": ("เสียงคลิกนี้เล่นกี่จังหวะต่อนาที", "หกสิบ"), "vi": ("Tiếng gõ này có bao nhiêu nhịp mỗi phút?", "sáu mươi"),
      "id": ("Berapa ketukan per menit trek klik ini?", "enam puluh"), "zh": ("这段节拍器每分钟几拍？", "六十")},
     {"en": ["ninety", "120"], "th": ["เก้าสิบ", "หนึ่งร้อยยี่สิบ"], "vi": ["chín mươi", "một trăm hai mươi"],
      "id": ["sembilan puluh", "seratus dua puluh"], "zh": ["九十", "一百二十"]}),
    ("morse-sos", "morse", "Which famous distress signal is sent in Morse code?", "SOS", "",
     {"th": ("สัญญาณขอความช่วยเหลือใดที่ส่งด้วยรหัสมอร์ส", "SOS"),
      "vi": ("Tín hiệu cấp cứu nổi tiếng nào được gửi bằng mã Morse?", "SOS"),
      "id": ("Sinyal darurat terkenal apa yang dikirim dengan kode Morse?", "SOS"),
      "zh": ("用摩尔斯电码发出的著名求救信号是什么？", "SOS")},
     {"en": ["MAYDAY", "HELP"], "th": ["เมย์เดย์", "ช่วยด้วย"], "vi": ["MAYDAY", "cứu"], "id": ["MAYDAY", "tolong"],
      "zh": ["求救", "救命"]}),
    ("interval-octave", "music", "What interval separates these two notes?", "octave", "",
     {"th": ("โน้ตสองตัวนี้ห่างกันเป็นช่วงเสียงใด", "ออกเทฟ"), "vi": ("Hai nốt này cách nhau quãng nào?", "quãng tám"),
      "id": ("Interval apa yang memisahkan dua nada ini?", "oktaf"), "zh": ("这两个音之间是什么音程？", "八度")},
     {"en": ["fifth", "third"], "th": ["คู่ห้า", "คู่สาม"], "vi": ["quãng năm", "quãng ba"], "id": ["kuint", "terts"],
      "zh": ["五度", "三度"]}),
]

_ANSWER_FORMS = {
    "eng-prompt": "The answer is {}.",
    "th": "คำตอบคือ {}", "vi": "Đáp án là {}.", "id": "Jawabannya {}.", "zh": "答案是{}。",
}
_REFUSALS = {
    "eng-prompt": "I'm sorry, but I cannot identify the audio.",
    "th": "ขออภัย ฉันไม่สามารถระบุเสียงนี้ได้", "vi": "Xin lỗi, tôi không thể trả lời câu hỏi này.",
    "id": "Maaf, saya tidak dapat menjawab pertanyaan ini.", "zh": "抱歉，我无法识别这段音频。",
}


def _qid(base: str, lang: str) -> str:
    return f"{base}-{lang}"


def bank_rows() -> list[dict]:
    """Bank rows (import format, without ``audio``) and the demo audio id each uses."""
    rows = []
    for base, task, _en_prompt, en_answer, digits, native, _wrong in _QUESTIONS:
        for lang in LANGUAGES:
            prompt, answer = native[lang]
            accepts = [a for a in (answer, digits) if a and a != en_answer]
            answerline = en_answer + (f" [accept {' or '.join(accepts)}]" if accepts else "")
            rows.append({
                "id": _qid(base, lang), "demo_audio": base, "category": f"Judge study: {task}",
                "prompt": prompt, "answerline": answerline, "source": "earshot-demo-judges",
                "metadata": {"language": lang, "task": task},
            })
    return rows


def model_outputs(seed: int = 7) -> list[dict]:
    """Free answers of every simulated system x condition x question, with their truth.

    Rows: ``system, condition, question_id, mode, answer`` (the import format) plus
    ``truth`` (the simulated correctness) and ``refusal`` (bool).
    """
    rng = random.Random(seed)
    rows = []
    for system, conditions in SYSTEMS.items():
        for condition in CONDITIONS:
            p_correct, p_refusal = conditions[condition]
            for base, _task, _p, en_answer, _d, native, wrong in _QUESTIONS:
                for lang in LANGUAGES:
                    in_english = condition == "eng-prompt"
                    form = _ANSWER_FORMS["eng-prompt" if in_english else lang]
                    refusal = rng.random() < p_refusal
                    truth = not refusal and rng.random() < p_correct
                    if refusal:
                        text = _REFUSALS["eng-prompt" if in_english else lang]
                    elif truth:
                        text = form.format(en_answer if in_english else native[lang][1])
                    else:
                        text = form.format(rng.choice(wrong["en" if in_english else lang]))
                    rows.append({"system": system, "condition": condition, "question_id": _qid(base, lang),
                                 "mode": "free", "answer": text, "truth": truth, "refusal": refusal})
    return rows


def human_labels(outputs: list[dict], *, seed: int = 7, share: float = 0.8, noise: float = 0.02) -> list[dict]:
    """Native-speaker labels for a seeded sample of ``outputs`` (import format rows).

    Each label is the truth, flipped with probability ``noise`` (annotators err
    too), with a 0-5 quality score: 4-5 when labelled correct, 0 for a refusal,
    1-2 otherwise.
    """
    rng = random.Random(seed + 1)
    labels = []
    for row in outputs:
        if rng.random() >= share:
            continue
        correct = row["truth"] if rng.random() >= noise else not row["truth"]
        score = rng.choice([4, 5]) if correct else (0 if row["refusal"] else rng.choice([1, 2]))
        labels.append({"question_id": row["question_id"], "system": row["system"],
                       "condition": row["condition"], "mode": "free", "human_correct": correct,
                       "human_score": score, "annotator": f"native-{row['question_id'][-2:]}"})
    return labels


# ------------------------------------------------------------ simulated judges

_FIELD = re.compile(r"^(Answerline|Player's answer|Model's answer):\s*(.*)$", re.MULTILINE)


def _acceptable(answerline: str) -> list[str]:
    main, _, rest = answerline.partition("[")
    out = [main.strip()]
    match = re.search(r"accept ([^\];]+)", rest)
    if match:
        out += [a.strip() for a in match.group(1).split(" or ")]
    return [a for a in out if a]


def _contains(answer: str, candidate: str) -> bool:
    a, c = answer.casefold(), candidate.casefold()
    if c.isascii():
        return re.search(rf"(?<!\w){re.escape(c)}(?!\w)", a) is not None
    return c in a


def _uniform(*parts: str) -> float:
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def simulated_judge_reply(body: dict) -> str:
    """A simulated judge's reply (JSON text) to one chat-completions request body.

    The purpose is read from the system prompt (verdict, 0-5 quality or 0.0-1.0
    score). Unknown models judge like ``judge-a``.
    """
    messages = body.get("messages") or []
    user = next((m.get("content", "") for m in messages if m.get("role") == "user"), "")
    system = next((m.get("content", "") for m in messages if m.get("role") == "system"), "")
    fields = {k: v.strip() for k, v in _FIELD.findall(user)}
    answerline = fields.get("Answerline", "")
    answer = fields.get("Player's answer", fields.get("Model's answer", ""))
    model = str(body.get("model") or "judge-a")
    correct = any(_contains(answer, c) for c in _acceptable(answerline))
    err_en, err_native = JUDGES.get(model, JUDGES["judge-a"])
    error = err_en if answer.isascii() else err_native
    if _uniform(model, answerline, answer) < error:
        correct = not correct
    if '"quality"' in system:
        return json.dumps({"quality": 5 if correct else 1, "reason": "simulated"})
    if '"score"' in system:
        return json.dumps({"score": 1.0 if correct else 0.0, "reason": "simulated"})
    return json.dumps({"correct": correct, "reason": "simulated judge"})
