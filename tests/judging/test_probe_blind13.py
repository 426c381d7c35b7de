"""Table-driven tests for the misses of the thirteenth blind probe of issue 13's families
(h-probe13, 2026-12-04, rows ``"probe": "blind13"`` of ``judging/data/short_answers.jsonl``:
audio trivia, songs, composers and catalogue numbers, instruments, soundtracks, anthems)
and of the drafts written with them but trimmed from the table: each row is a case the
judge got wrong before the fix, or a trap the fix must not break.

* an instrument's register is a qualifier even in lower case (``entities._REGISTERS``):
  ``bass clarinet`` for ``Clarinet`` and ``bass guitar`` for ``Electric guitar [accept
  guitar]`` were ``contains`` accepts at 0.89, ``alto saxophone`` for ``Tenor saxophone``
  a fuzzy accept at 0.65, ``clarinet`` for ``bass clarinet`` a grey accept at 0.89;
* a key's accidental after the same letter (``entities._accidental``): ``Symphony No. 3 in
  E major`` for ``Symphony No. 3 in E-flat major, Op. 55`` was a fuzzy accept at 0.97;
* ``instrument`` is a generic word: ``brass instruments`` for ``Brass`` was other-entity;
* a title without its installment's ``Episode V`` / ``Part II`` is another installment:
  ``Star Wars`` for ``... [accept Star Wars: Episode V]`` (0.81) and ``The Godfather`` for
  ``The Godfather Part II`` (0.85) were ``token-overlap`` accepts;
* a demonym before a language, after a question asking for a language, is its variety:
  ``Brazilian Portuguese`` for ``Portuguese`` was other-entity (``American Samoa`` for
  ``Samoa`` stays one), and so is a language after a demonym (``Scottish English`` for
  ``Scottish`` after "Which accent ...?"); a place said after a surname with a preposition is
  no other name (``Reagan in Berlin`` for ``Ronald Reagan`` was other-entity);
* letters written together for the answer's hyphenated letters: ``Son Tung MTP`` for
  ``Sơn Tùng M-TP`` was other-entity (``entities._joined_at``);
* a key letter swapped, every other word the same (``Canon in C`` for ``Canon in D``, a
  fuzzy accept at 0.86: the letter read as the initial of ``canon``);
* ``minor`` after a key letter both say is part of the key: ``Symphony in C`` for
  ``Symphony No. 5 in C minor`` was a ``token-overlap`` accept at 0.84;
* catalogue words abbreviated: ``Opus 67`` for ``Op. 67`` was other-entity
  (``entities._CATALOGUE``);
* a surname accepted alone (or with initials) licenses no other given name:
  ``Johann Christian Bach`` for ``Johann Sebastian Bach [accept J. S. Bach; accept Bach]``
  was a ``contains`` accept at 0.89;
* a person-like answer's first words without its last name words, two words or more, are
  another person or work (``other-entity``)
  (``Mary Wollstonecraft`` for ``Mary Shelley [accept Mary Wollstonecraft Shelley]`` was a
  fuzzy accept at 0.76, EVOUNA-NQ's ``Peter Gardner`` for ``Peter Gardner Ostrum`` one at
  0.85; not a part of a hyphenated surname, ``Tamera Mowry``);
* Chinese "X composed it" (``是冼星海作的曲``) is a boundary after the name
  (``scripts._AFTER``);
* an answer in a script without spaces said without, or with, the kind of thing the
  question asks for: ``第五`` for ``第五交响曲`` after "……是第几交响曲？" and ``第5号交响曲``
  for ``第5号`` were ``other-word``, and so was ``贝多芬第五交响曲`` for ``第五交响曲`` after a
  question naming 贝多芬 (``short_rules.question_part``; the kind must stand
  next to the question word: ``เกาหลี`` for ``เกาหลีใต้`` after a question that says ใต้
  elsewhere stays wrong);
* stop words of a title are words of it when the answer is capitalized as a title and no
  person's name (``short_rules._TITLE_STOPS``): ``For a Few Dollars More`` for ``A Fistful
  of Dollars`` was a ``token-overlap`` accept at 0.95, ``Let It Be`` for ``Let It Go`` at
  0.84;
* another kind of work with the same number (``entities.WORK_KINDS``): ``Piano Concerto
  No. 2`` for ``Symphony No. 2`` was a ``token-overlap`` accept at 0.85; ``mezzo`` is a
  register (``mezzo-soprano`` for ``soprano``, 0.89);
* Korean ``X 말고 Y`` ("not X, Y") is a self-correction to Y (``제니 말고 지수`` for ``제니`` was
  a ``contains`` accept at 0.89; ``corrections._NOT_BUT``), Tagalog ``X, hindi Y`` negates Y
  (``Rivermaya, hindi Eraserheads`` for ``Eraserheads``, 0.89; ``equivalence._NEG_INNER``),
  and the Korean register words are registers (``색소폰`` for ``알토 색소폰``, 0.89); the
  Indonesian/Malay instrument families (``tiup``, ``pukul``, ``petik``, ``gesek``) swapped
  are another family (``alat musik tiup`` for ``[accept alat musik pukul]``, a grey accept
  at 0.59 after the refit);
* the no-space surname rule skips a name the question says: ``คาราบาว`` for ``แอ๊ด คาราบาว``
  after "who is the singer of คาราบาว?" (the band) was a ``surname`` accept at 0.95.

Left as they were: ``Ringo`` for ``Ringo Starr`` (``given-name``; a moderator may accept a
name this famous alone), ``作曲是聂耳，作词是田汉`` (the comma is gone after normalization,
so 聂耳 reads as running into 作词), ``きみがよ`` / ``Kimigayo`` for ``君が代`` (a kanji
reading), ``RM이에요`` (a Latin name with a Korean copula), and grey accepts capped at 0.89
of species words (``Albert's lyrebird``, ``blue-winged kookaburra``, ``owl`` for ``Barred
owl``).
"""

from __future__ import annotations

import pytest

from judging.equivalence import judge

# (candidate, answerline, question, correct)
CASES = [
    # an instrument's register
    pytest.param("bass clarinet", "Clarinet", "Which instrument plays the opening of "
                 "'Rhapsody in Blue'?", False, id="en-bass-clarinet-added"),
    pytest.param("bass guitar", "Electric guitar [accept guitar]",
                 "Which instrument did Jimi Hendrix play?", False, id="en-bass-guitar"),
    pytest.param("alto saxophone", "Tenor saxophone [accept tenor sax]",
                 "Which saxophone does Coltrane play?", False, id="en-alto-for-tenor"),
    pytest.param("clarinet", "bass clarinet", "Which instrument?", False,
                 id="en-register-dropped-lower-case"),
    pytest.param("saxophone", "tenor saxophone", "Which instrument?", False,
                 id="en-register-dropped"),
    pytest.param("tenor sax", "Tenor saxophone [accept tenor sax]",
                 "Which saxophone does Coltrane play?", True, id="en-tenor-sax-accepted"),
    pytest.param("the alto sax", "Alto saxophone", "Which saxophone did Charlie Parker play?",
                 True, id="en-alto-sax-abbreviated"),
    pytest.param("guitar", "Electric guitar [accept guitar]",
                 "Which instrument did Jimi Hendrix play?", True, id="en-guitar-accepted"),
    pytest.param("the double bass", "Double bass [accept contrabass]", "Which instrument?",
                 True, id="en-double-bass"),
    # a key's accidental
    pytest.param("Symphony No. 3 in E major", "Symphony No. 3 in E-flat major, Op. 55",
                 "Which Beethoven symphony is the 'Eroica'?", False, id="en-flat-dropped"),
    pytest.param("E major", "E-flat major", "In what key?", False, id="en-key-flat-dropped"),
    pytest.param("C-sharp minor", "C minor", "In what key?", False, id="en-key-sharp-added"),
    pytest.param("C sharp minor", "C-sharp minor", "In what key?", True, id="en-key-sharp-spaced"),
    pytest.param("Symphony No. 5", "Symphony No. 5 in C minor", "Which symphony?", True,
                 id="en-key-left-out"),
    # generic "instrument"
    pytest.param("brass instruments", "Brass",
                 "To which instrument family does the French horn belong?", True,
                 id="en-brass-instruments"),
    pytest.param("woodwind", "Brass", "To which instrument family does the French horn "
                 "belong?", False, id="en-other-family"),
    # an installment's "Episode V" / "Part II" dropped
    pytest.param("Star Wars", "The Empire Strikes Back [accept Star Wars: Episode V]",
                 "In which film does Darth Vader say 'I am your father'?", False,
                 id="en-episode-dropped"),
    pytest.param("The Godfather", "The Godfather Part II", "Which 1974 film won Best "
                 "Picture?", False, id="en-part-dropped"),
    pytest.param("Episode V", "The Empire Strikes Back [accept Star Wars: Episode V]",
                 "In which film does Darth Vader say 'I am your father'?", True,
                 id="en-episode-kept"),
    # a demonym before a language
    pytest.param("Brazilian Portuguese", "Portuguese", "Which language does the speaker "
                 "use in this clip?", True, id="en-language-variety"),
    pytest.param("American Samoa", "Samoa", "Which country's anthem is this?", False,
                 id="en-demonym-before-country"),
    pytest.param("Scottish English", "Scottish", "Which accent does the speaker have?", True,
                 id="en-accent-variety"),
    pytest.param("Reagan in Berlin", "Ronald Reagan", "Who said 'Tear down this wall'?", True,
                 id="en-surname-with-place"),
    pytest.param("Thomas Jefferson", "Jefferson Davis", "Who led the Confederacy?", False,
                 id="en-two-names-one-word"),
    # a person's given names without the surname
    pytest.param("Mary Wollstonecraft", "Mary Shelley [accept Mary Wollstonecraft Shelley]",
                 "Who wrote the novel Frankenstein?", False, id="en-given-names-only"),
    pytest.param("John Quincy", "John Quincy Adams", "Who was the sixth president?", False,
                 id="en-given-names-only-2"),
    pytest.param("Franklin Roosevelt", "Franklin Delano Roosevelt",
                 "Who said 'the only thing we have to fear'?", True, id="en-middle-name-dropped"),
    pytest.param("Tamera Mowry", "Tamera Mowry-Housley", "Who co-hosts The Real?", True,
                 id="en-hyphenated-surname-part"),
    pytest.param("alat musik pukul", "perkusi [accept alat musik pukul]",
                 "Gamelan terutama terdiri dari alat musik jenis apa?", True,
                 id="id-family-accepted"),
    pytest.param("alat musik petik", "perkusi [accept alat musik pukul]",
                 "Gamelan terutama terdiri dari alat musik jenis apa?", False,
                 id="id-family-swapped"),
    # joined letters
    pytest.param("Son Tung MTP", "Sơn Tùng M-TP [accept Sơn Tùng]",
                 "Ca sĩ nào trình bày bài 'Chúng ta của hiện tại'?", True,
                 id="vi-joined-letters"),
    pytest.param("Đen Vâu", "Sơn Tùng M-TP [accept Sơn Tùng]",
                 "Ca sĩ nào trình bày bài 'Chúng ta của hiện tại'?", False,
                 id="vi-other-singer"),
    # catalogue words
    pytest.param("Opus 67", "Symphony No. 5 in C minor [accept Fifth Symphony; accept Op. 67]",
                 "Name this Beethoven symphony.", True, id="en-opus-for-op"),
    pytest.param("Op. 68", "Opus 67", "Which opus?", False, id="en-other-opus"),
    pytest.param("BWV 626", "K. 626 [accept KV 626; accept Köchel 626]",
                 "What is the Köchel number of Mozart's Requiem?", False,
                 id="en-other-catalogue"),
    # a surname accept licenses no other given name
    pytest.param("Johann Christian Bach",
                 "Johann Sebastian Bach [accept J. S. Bach; accept Bach]",
                 "Who composed the Brandenburg Concertos?", False, id="en-other-bach"),
    pytest.param("C. P. E. Bach", "Johann Sebastian Bach [accept J. S. Bach; accept Bach]",
                 "Who composed the Brandenburg Concertos?", False, id="en-cpe-bach"),
    pytest.param("J.S. Bach", "Johann Sebastian Bach [accept J. S. Bach; accept Bach]",
                 "Who composed the Brandenburg Concertos?", True, id="en-js-bach"),
    pytest.param("Kota Jakarta", "Jakarta [accept DKI Jakarta]",
                 "Apa ibu kota Indonesia sebelum IKN?", True, id="id-kota-not-a-given-name"),
    # zh "X composed it"
    pytest.param("是冼星海作的曲", "冼星海", "《黄河大合唱》的作曲者是谁？", True,
                 id="zh-composed-it"),
    pytest.param("是聂耳作的曲", "冼星海", "《黄河大合唱》的作曲者是谁？", False,
                 id="zh-other-composer-composed-it"),
    # the kind the question asks for
    pytest.param("第五", "第五交响曲 [accept 第5号; accept C小调第五交响曲]",
                 "贝多芬的《命运交响曲》是第几交响曲？", True, id="zh-kind-left-out"),
    pytest.param("第5号交响曲", "第五交响曲 [accept 第5号; accept C小调第五交响曲]",
                 "贝多芬的《命运交响曲》是第几交响曲？", True, id="zh-kind-added"),
    pytest.param("第九", "第五交响曲 [accept 第5号; accept C小调第五交响曲]",
                 "贝多芬的《命运交响曲》是第几交响曲？", False, id="zh-other-ordinal"),
    pytest.param("เกาหลี", "เกาหลีใต้", "ประเทศทางใต้ของคาบสมุทรเกาหลี", False,
                 id="th-qualifier-elsewhere-in-question"),
    # a name the question says
    pytest.param("คาราบาว", "แอ๊ด คาราบาว [accept ยืนยง โอภากุล]",
                 "นักร้องนำวงคาราบาวคือใคร", False, id="th-band-for-member"),
    pytest.param("ยืนยง โอภากุล", "แอ๊ด คาราบาว [accept ยืนยง โอภากุล]",
                 "นักร้องนำวงคาราบาวคือใคร", True, id="th-real-name"),
    # second round (h-probe13's own further traps): title stop words, kinds of work, mezzo
    pytest.param("For a Few Dollars More", "A Fistful of Dollars",
                 "Which Leone film's theme is this?", False, id="en-title-stop-words"),
    pytest.param("A Fistful of Dollars", "For a Few Dollars More",
                 "Which Leone film's theme is this?", False, id="en-title-stop-words-back"),
    pytest.param("Let It Be", "Let It Go", "Which song from Frozen?", False,
                 id="en-let-it-be-for-let-it-go"),
    pytest.param("Let It Go from Frozen", "Let It Go", "Which song?", True,
                 id="en-song-with-film"),
    pytest.param("It wasn't Fleming, it was Florey", "Alexander Fleming",
                 "Who discovered penicillin?", False, id="en-person-not-a-title"),
    pytest.param("The Four Seasons was composed by Vivaldi.", "Antonio Vivaldi",
                 "Who composed The Four Seasons?", True, id="en-sentence-for-person"),
    pytest.param("Piano Concerto No. 2", "Symphony No. 2", "Which work?", False,
                 id="en-other-kind-of-work"),
    pytest.param("Symphony No. 2", "Symphony No. 2 in D major", "Which work?", True,
                 id="en-same-kind-of-work"),
    pytest.param("mezzo-soprano", "soprano", "Which voice type?", False, id="en-mezzo-added"),
    pytest.param("soprano", "mezzo-soprano", "Which voice type?", False, id="en-mezzo-dropped"),
    pytest.param("Symphony in C", "Symphony No. 5 in C minor", "Which Beethoven symphony?",
                 False, id="en-minor-dropped"),
    pytest.param("G minor", "G minor", "In what key is Mozart's Symphony No. 40?", True,
                 id="en-minor-kept"),
    pytest.param("贝多芬第五交响曲", "第五交响曲", "贝多芬的命运交响曲是哪一首？", True,
                 id="zh-name-of-the-question-before"),
    pytest.param("贝多芬的第五交响曲", "第五交响曲", "贝多芬的命运交响曲是哪一首？", True,
                 id="zh-name-of-the-question-de"),
    pytest.param("莫扎特第五交响曲", "第五交响曲", "贝多芬的命运交响曲是哪一首？", False,
                 id="zh-other-name-before"),
    pytest.param("Canon in C", "Canon in D", "Which Pachelbel work?", False,
                 id="en-key-letter-swapped"),
    pytest.param("the Canon in D", "Canon in D", "Which Pachelbel work?", True,
                 id="en-key-letter-kept"),
    pytest.param("John F. Kennedy", "John F. Kennedy [accept JFK]", "Who said 'Ask not'?", True,
                 id="en-initial-not-a-key"),
    pytest.param("Pathetique Sonata", "Piano Sonata No. 8 [accept Pathétique]",
                 "Which Beethoven sonata?", True, id="en-nickname-and-kind-asked"),
    # ko "X 말고 Y" ("not X, Y"), tl "X, hindi Y" ("X, not Y"), ko registers
    pytest.param("제니 말고 지수", "제니", "블랙핑크 멤버 중 '솔로'를 부른 사람은?", False,
                 id="ko-malgo-away"),
    pytest.param("지수 말고 제니", "제니", "블랙핑크 멤버 중 '솔로'를 부른 사람은?", True,
                 id="ko-malgo-to"),
    pytest.param("Rivermaya, hindi Eraserheads", "Eraserheads", "Anong banda?", False,
                 id="tl-hindi-inner"),
    pytest.param("Eraserheads, hindi Rivermaya", "Eraserheads", "Anong banda?", True,
                 id="tl-hindi-inner-other"),
    pytest.param("색소폰", "알토 색소폰", "찰리 파커가 연주한 악기는?", False,
                 id="ko-register-dropped"),
    pytest.param("테너 색소폰", "알토 색소폰", "찰리 파커가 연주한 악기는?", False,
                 id="ko-register-swapped"),
    pytest.param("알토 색소폰이요", "알토 색소폰", "찰리 파커가 연주한 악기는?", True,
                 id="ko-register-kept"),
    # unchanged neighbours in other languages
    pytest.param("현악기예요", "현악기 [accept 발현악기]", "가야금은 어떤 종류의 악기인가?", True,
                 id="ko-family-copula"),
    pytest.param("관악기", "현악기 [accept 발현악기]", "가야금은 어떤 종류의 악기인가?", False,
                 id="ko-other-family"),
    pytest.param("久石譲さんです", "久石譲 [accept Joe Hisaishi]",
                 "『千と千尋の神隠し』の音楽を担当した作曲家は？", True, id="ja-honorific"),
    pytest.param("alat musik tiup", "perkusi [accept alat musik pukul]",
                 "Gamelan terutama terdiri dari alat musik jenis apa?", False,
                 id="id-other-family"),
    pytest.param("si Ely Buendia", "Ely Buendia", "Sino ang bokalista ng Eraserheads?", True,
                 id="tl-si"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind13_family(candidate: str, answerline: str, question: str, correct: bool) -> None:
    verdict = judge(candidate, [answerline], question=question)
    assert verdict.correct is correct, (candidate, answerline, verdict.rule, verdict.score)
    if not correct:
        assert verdict.score < 0.9
