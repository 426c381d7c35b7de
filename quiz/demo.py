"""The demo bank: real, answerable audio questions built from synthesised sounds.

:func:`write_demo_bank` writes the audio files and a ``bank.jsonl`` in the import
format (docs/import-format.md), so the demo goes through the same import path as
a researcher's bank. :func:`demo_model_outputs` makes model outputs in the
``quiz_import_responses`` format for a few simulated systems and conditions.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from . import synth

ENV = "Environmental and Acoustic Sound Recognition"
MUSIC = "Elements of Musical Works"
NAME_MUSIC = "Name The Music: Songs, Artists & Composers"
GEO = "Cultural Geography in Sound"
POP = "Pop Culture and Media"


def _bank() -> list[dict]:
    """Question definitions: id, prompt, answerline, category, audio, MCQ choices."""
    return [
        {"id": "beeps-3", "category": ENV, "prompt": "How many beeps do you hear?",
         "answerline": "3 [accept three]", "audio": {"beeps-a.wav": synth.beeps(3)},
         "choices": ["2", "3", "4", "5"], "correct": 1},
        {"id": "beeps-5", "category": ENV, "prompt": "Count the beeps. How many are there?",
         "answerline": "5 [accept five]", "audio": {"beeps-b.wav": synth.beeps(5, freq=660)},
         "choices": ["4", "5", "6", "7"], "correct": 1},
        {"id": "higher-tone", "category": ENV, "prompt": "Two tones play. Which one is higher, the first or the second?",
         "answerline": "the second [accept 2nd or second one or two]", "audio": {"tones-a.wav": synth.two_tones(523.25, 587.33)},
         "choices": ["The first", "The second", "They are the same", "Neither is a tone"], "correct": 1},
        {"id": "dtmf-uk", "category": GEO, "prompt": "This emergency number is dialled on a phone keypad. In which country is it the emergency number?",
         "answerline": "United Kingdom [accept UK or Britain or Great Britain or England; prompt on Europe]",
         "audio": {"keypad-a.wav": synth.dtmf("999")},
         "choices": ["United Kingdom", "United States", "Australia", "Germany"], "correct": 0},
        {"id": "dtmf-digits", "category": GEO, "prompt": "Which three-digit number is dialled on the keypad?",
         "answerline": "112 [accept one one two]", "audio": {"keypad-b.wav": synth.dtmf("112")},
         "choices": ["911", "112", "999", "110"], "correct": 1},
        {"id": "interval-fifth", "category": MUSIC, "prompt": "Name the musical interval between the two notes.",
         "answerline": "perfect <u>fifth</u> [accept P5]", "audio": {"interval-a.wav": synth.interval(7)},
         "choices": ["Perfect fourth", "Perfect fifth", "Major third", "Octave"], "correct": 1},
        {"id": "interval-octave", "category": MUSIC, "prompt": "What interval separates these two notes?",
         "answerline": "<u>octave</u> [accept perfect octave or P8 or eighth]", "audio": {"interval-b.wav": synth.interval(12, root=57)},
         "choices": ["Perfect fifth", "Minor seventh", "Octave", "Major sixth"], "correct": 2},
        {"id": "interval-third", "category": MUSIC, "prompt": "Name the interval you hear.",
         "answerline": "major third [accept M3; prompt on third]", "audio": {"interval-c.wav": synth.interval(4, root=62)},
         "choices": ["Minor third", "Major third", "Perfect fourth", "Major second"], "correct": 1},
        {"id": "tempo-120", "category": MUSIC, "prompt": "What is the tempo of this metronome, in beats per minute?",
         "answerline": "120 [accept 120 BPM]", "audio": {"metronome-a.wav": synth.click_track(120)},
         "choices": ["90", "100", "120", "140"], "correct": 2},
        {"id": "tempo-60", "category": MUSIC, "prompt": "How many beats per minute does this click track play?",
         "answerline": "60 [accept sixty or 60 BPM]", "audio": {"metronome-b.wav": synth.click_track(60, seconds=7)},
         "choices": ["60", "72", "80", "48"], "correct": 0},
        {"id": "morse-sos", "category": POP, "prompt": "Which famous distress signal is sent in Morse code?",
         "answerline": "SOS [accept S.O.S.]", "audio": {"morse-a.wav": synth.morse("SOS")},
         "choices": ["SOS", "MAYDAY", "CQD", "HELP"], "correct": 0},
        {"id": "morse-letter", "category": POP, "prompt": "Which single letter is tapped out in Morse code?",
         "answerline": "Q [accept Quebec]", "audio": {"morse-b.wav": synth.morse("Q")},
         "choices": ["Q", "Y", "K", "G"], "correct": 0},
        {"id": "melody-twinkle", "category": NAME_MUSIC, "prompt": "Name this melody.",
         "answerline": "Twinkle, Twinkle, Little Star [accept Ah vous dirai-je, maman or Alphabet Song or Baa, Baa, Black Sheep]",
         "audio": {"melody-a.wav": synth.melody("twinkle")},
         "choices": ["Twinkle, Twinkle, Little Star", "Frère Jacques", "Ode to Joy", "Mary Had a Little Lamb"], "correct": 0},
        {"id": "melody-frere", "category": NAME_MUSIC, "prompt": "Which round is this?",
         "answerline": "Frère Jacques [accept Brother John or Are You Sleeping]",
         "audio": {"melody-b.wav": synth.melody("frere_jacques", bpm=120)},
         "choices": ["Row, Row, Row Your Boat", "Frère Jacques", "London Bridge", "Three Blind Mice"], "correct": 1},
        {"id": "pyramid-ode", "category": NAME_MUSIC, "pyramidal": True,
         "prompt": "Name this piece. Clues go from rhythm only, to the opening notes, to the full theme.",
         "answerline": "Ode to Joy [accept An die Freude or Beethoven's Ninth or Symphony No. 9; prompt on Beethoven]",
         "audio": {
             "pyramid-1.wav": synth.melody("ode_to_joy", rhythm_only=True),
             "pyramid-2.wav": synth.melody("ode_to_joy", notes=5, harmonics=1),
             "pyramid-3.wav": synth.melody("ode_to_joy"),
         },
         "choices": ["Ode to Joy", "Für Elise", "Jingle Bells", "Canon in D"], "correct": 0},
    ]


#: Counterfactual keys (KoALa): what the answer would be if the audio said otherwise.
COUNTERFACTUAL = {
    "beeps-3": "4 [accept four]",
    "dtmf-uk": "United States [accept USA or America]",
    "dtmf-digits": "911 [accept nine one one]",
    "tempo-120": "90 [accept 90 BPM]",
    "morse-sos": "MAYDAY",
    "interval-fifth": "perfect <u>fourth</u> [accept P4]",
}
#: Source dataset of each category (Audita Table 1 needs more than one source).
SOURCES = {ENV: "earshot-demo-tones", MUSIC: "earshot-demo-tones", GEO: "earshot-demo-signals",
           POP: "earshot-demo-signals", NAME_MUSIC: "earshot-demo-melodies"}
EVIDENCE = ("start", "middle", "end")


def write_demo_bank(directory: Path) -> Path:
    """Write the demo audio files and ``bank.jsonl`` into ``directory``; return the bank path.

    Each question also carries a ``metadata.evidence_position`` (where in the clip the
    answer is heard, KoALa Table 3) and some a ``counterfactual_answerline``.
    """
    directory.mkdir(parents=True, exist_ok=True)
    lines = []
    for index, spec in enumerate(_bank()):
        names = []
        for name, signal in spec["audio"].items():
            (directory / name).write_bytes(synth.wav_bytes(signal))
            names.append(name)
        row = {k: v for k, v in spec.items() if k != "audio"}
        row["audio"] = names
        row["source"] = SOURCES[spec["category"]]
        row["metadata"] = {"evidence_position": EVIDENCE[index % 3]}
        if spec["id"] in COUNTERFACTUAL:
            row["counterfactual_answerline"] = COUNTERFACTUAL[spec["id"]]
        lines.append(json.dumps(row, ensure_ascii=False))
    bank = directory / "bank.jsonl"
    bank.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return bank


#: Simulated systems: (name, condition, P(correct) free, P(correct) MCQ).
DEMO_SYSTEMS = [
    ("demo-alm-large", "audio+text", 0.75, 0.85),
    ("demo-alm-large", "text-only", 0.15, 0.35),
    ("demo-alm-small", "audio+text", 0.45, 0.6),
    ("demo-alm-small", "transcript-only", 0.2, 0.4),
    ("demo-alm-small", "text-only", 0.1, 0.3),
]

_WRONG_FREE = ["I am not sure", "a bird call", "4", "Australia", "minor sixth", "Für Elise", "100", "HELP"]


def demo_model_outputs(path: Path, *, seed: int = 7) -> Path:
    """Write simulated model outputs for every demo question (free and MCQ)."""
    rng = random.Random(seed)
    rows = []
    for system, condition, p_free, p_mcq in DEMO_SYSTEMS:
        for spec in _bank():
            main = spec["answerline"].split("[")[0].replace("<u>", "").replace("</u>", "").strip()
            answer = f"The answer is {main}." if rng.random() < p_free else rng.choice(_WRONG_FREE)
            rows.append({"system": system, "condition": condition, "question_id": spec["id"],
                         "mode": "free", "answer": answer})
            if rng.random() < p_mcq:
                choice = spec["correct"]
            else:
                choice = rng.choice([i for i in range(4) if i != spec["correct"]])
            rows.append({"system": system, "condition": condition, "question_id": spec["id"],
                         "mode": "mcq", "choice": "ABCD"[choice]})
    rows.extend(demo_variant_outputs(seed=seed))
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def _main(answerline: str) -> str:
    return answerline.split("[")[0].replace("<u>", "").replace("</u>", "").strip()


#: Per audio+text system: P(follow the counterfactual speech), P(right per clue), per
#: prompt variant, per prompt language.
VARIANT_SKILL = {
    "demo-alm-large": {"follow": 0.6, "clues": (0.2, 0.55, 0.9), "prompts": {"p1": 0.7, "p2": 0.8, "p3": 0.55},
                       "languages": {"en": 0.75, "th": 0.6, "vi": 0.65, "id": 0.7}},
    "demo-alm-small": {"follow": 0.35, "clues": (0.1, 0.3, 0.6), "prompts": {"p1": 0.4, "p2": 0.5, "p3": 0.45},
                       "languages": {"en": 0.45, "th": 0.3, "vi": 0.35, "id": 0.5}},
}


def demo_variant_outputs(*, seed: int = 7) -> list[dict]:
    """Variant model outputs: counterfactual context, per clue, prompt variants and languages.

    Drawn from their own random stream, so the plain outputs stay as they were.
    """
    rng = random.Random(seed + 101)
    rows: list[dict] = []
    for system, skill in VARIANT_SKILL.items():
        base = {"system": system, "condition": "audio+text", "mode": "free"}
        for spec in _bank():
            main = _main(spec["answerline"])
            if spec["id"] in COUNTERFACTUAL:
                draw = rng.random()
                if draw < skill["follow"]:
                    answer = _main(COUNTERFACTUAL[spec["id"]])
                elif draw < skill["follow"] + (1 - skill["follow"]) / 2:
                    answer = main
                else:
                    answer = rng.choice(_WRONG_FREE)
                rows.append({**base, "question_id": spec["id"], "context": "counterfactual", "answer": answer})
            if spec.get("pyramidal"):
                for clue, p in enumerate(skill["clues"]):
                    answer = main if rng.random() < p else rng.choice(_WRONG_FREE)
                    rows.append({**base, "question_id": spec["id"], "clue_index": clue, "answer": answer})
            for variant, p in skill["prompts"].items():
                answer = main if rng.random() < p else rng.choice(_WRONG_FREE)
                rows.append({**base, "question_id": spec["id"], "prompt_variant": variant, "answer": answer})
            for language, p in skill["languages"].items():
                answer = main if rng.random() < p else rng.choice(_WRONG_FREE)
                rows.append({**base, "question_id": spec["id"], "prompt_language": language, "answer": answer})
    return rows


def demo_human_answers(rng: random.Random, skill: float) -> list[tuple[str, str, str | int]]:
    """Simulated answers of one human player: (question id, mode, answer or option index)."""
    out: list[tuple[str, str, str | int]] = []
    for spec in _bank():
        mode = "mcq" if rng.random() < 0.5 else "free"
        if mode == "free":
            main = spec["answerline"].split("[")[0].replace("<u>", "").replace("</u>", "").strip()
            out.append((spec["id"], mode, main if rng.random() < skill else rng.choice(_WRONG_FREE)))
        else:
            good = rng.random() < min(skill + 0.15, 0.98)
            out.append((spec["id"], mode, spec["correct"] if good else (spec["correct"] + 1) % 4))
    return out
