"""Table-driven tests for the misses of the sixth blind probe of issue 13's families
(h-probe6, 2026-12-04, rows ``"probe": "blind6"`` of ``judging/data/short_answers.jsonl``):
each row is a case the judge got wrong before the fix, or a trap the fix must not break.

* Indonesian/Malay self-corrections with ``eh`` and the word that says the slip, no
  punctuation between them (``Semeru, eh bukan, Puncak Jaya``; ``Puncak Jaya, eh salah,
  Rinjani`` was accepted at p = 0.99 before);
* the Japanese ``か`` ("or") between two answers (``宮崎駿か高畑勲``, accepted at p = 0.99
  before; ``宮崎駿かな`` / ``かも`` / ``かと思います`` are guesses, still right) and the Korean
  particle ``(이)나`` ("or", ``박찬욱이나 봉준호``), which the normalizer strips;
* an acceptable answer in number words is a number too: another number contradicts it
  (``empat belas`` for ``13 [accept tiga belas]``, ``tiga belas`` alone); ``seribu`` now reads
  inside its section (``seribu juta`` is 10**9, not 1,001,000);
* number words inside a phrase against the same phrase with digits (``thế kỷ mười chín`` for
  ``thế kỷ 19``);
* the same number in another unit of the same kind is another answer (``100 miles`` for
  ``100 kilometers``, ``132 kaki`` for ``132 meter``, ``42.195마일``; ``numbers.UNITS``), and
  units are counters in scripts without spaces (``八千八百四十八米`` for ``8848米``; ``8848英尺``
  stays wrong);
* number words that the script rules called "another word" are read by rule 7b when another
  acceptable answer has digits (``十七`` for ``17音 [accept 十七音]``, ``百分之七十`` for ``70%``),
  and the question's unit may stand anywhere in a question word (``四十七都道府県`` after
  ``日本の都道府県はいくつ…``);
* Korean ``달`` and ``개월`` (and Japanese ``か月`` / ``ヶ月`` / ``个月``) count the same months;
* hiragana and katakana write the same word (``フジサン`` for ``ふじさん``, ``きじ`` for ``キジ``);
* decimals said in number words (``ba phẩy mười bốn`` and ``ba phẩy một bốn`` for ``3,14``,
  ``tiga koma satu empat``, ``三点一四``, ``삼 점 일사``, ``สามจุดหนึ่งสี่`` for ``3.14``:
  ``numbers.read_decimal``; a unit after the decimal is not read);
* a currency said with the word for money (``원화`` for ``원``, ``เงินบาท`` for ``บาท``; ``เงินเดือน``,
  "salary", is no ``เดือน``);
* an ordinal with the question's noun is no given name (``the 13th`` for ``Thirteenth
  Amendment`` after "Which amendment …?"; ``Seven`` for ``Seven Samurai`` stays wrong).

Round 3 (variants of the same families that the blind6 rows did not write, checked before
they were fixed): Vietnamese ``hay`` and Malay ``ataupun`` ("or"); Chinese ``还是`` / ``或是`` and
Japanese ``もしくは`` between two answers (``我觉得还是上海``, "Shanghai after all", stays right);
Vietnamese ``ờ không`` / ``không phải`` and Chinese ``不是`` between commas, and ``哦不对``, as
self-corrections; ``pound`` as a mass and a currency, ``won``, and the era (``BC`` / ``AD``) as
units; digits before ``万`` / ``億`` (``1億2000万``); an answer of digits and a scale word (``2
tỷ``); thousands dots in groups of two or more (``2.000.000``); units as counters in
Indonesian and Vietnamese (``tujuh puluh lima kilogram`` for ``75 kg``).

Round 4: id/ms particles that address the asker after the answer (``ya``, ``kak``, ``dong``,
``pak``, ...) and vi ``nhé`` (not ``nha``, ``dong``, ``kan``: syllables of ``Tây Ban Nha``,
``Quảng Đông``, ``Naoto Kan``); a decade without its century in vi, id/ms, ko, zh/ja
(``thập niên 60``, ``tahun 60-an``, ``60년대``, ``60年代`` for the same with ``1960``); the
Indonesian ordinal prefix on a number of several words (``abad kedelapan belas``), and Korean
number words before a spaced counter (``십팔 세기``).

Round 5: Vietnamese ranks and prizes (``hạng nhì`` "second place" for ``hạng nhất``, ``giải
ba``) swap a number; katakana spellings of one loanword (``ヴァイオリン`` / ``バイオリン``, a
final long-vowel mark, ``コンピューター`` / ``コンピュータ``, not inside a word or after fewer
than three kana).

Round 6: a doubt negates the answer (``I don't think it's Paris`` was accepted at 0.99; ``Tôi
không nghĩ là …``, ``Saya tidak rasa …``), and an adverb before "not X, Y" keeps it a
self-correction (``Definitely not Lyon, it's Paris``).

Round 7: Japanese numbers read aloud in hiragana (``さんびゃく`` for ``300``, ``にじゅうご``;
``くに`` "country" is no 92: a reading needs a multiplier unless it is one word), and number
words before the same word as digits (``三十六計`` for ``36計``, ``一千零一夜`` for ``1001夜``; the
number must start both texts).

Round 8: a transliterated name's last part is its surname in Japanese, Chinese and Thai
(``フレミング`` for ``アレクサンダー・フレミング``) and another given name before an accepted
surname is another person in Hangul (``마리엘 헤밍웨이`` for ``어니스트 헤밍웨이 [accept 헤밍웨이]``,
was accepted at 0.89); these scripts have no capitals to tell a name from a place, so both
are asked only for a question about a person (谁, 誰, ใคร, 누구, ai, siapa, who).

Round 9: "not sure" before the answer is a hedge (vi ``Tôi không chắc, có thể là Huế`` was a
negation; id/ms ``Saya tidak yakin, …``), and tag questions after it are fillers (id/ms
``bukan``, vi ``phải không``, ``đúng không``, th ``ใช่ไหม``; not ``kan``).

Round 10: a number and a subtitle after the title are another installment (``Laskar Pelangi
2: Edensor`` for ``Laskar Pelangi``, was accepted at 0.89), and so is another subtitle after the
same series title at any length (``The Lord of the Rings: The Two Towers`` for ``…: The
Fellowship of the Ring`` was accepted at 0.93).

Left as they were (blind6 misses): ``Oz the Great and Powerful`` for ``The Wizard of Oz``
(a title sharing one word, grey 0.77); ``조지 H. W. 부시`` for ``조지 W. 부시 [accept 부시]`` (the
accepted surname licenses the name; grey 0.89, the same in English);
``แม่น้ำโขง ไม่ใช่ เจ้าพระยาครับ`` ("Mekong, no, Chao Phraya", also read "Mekong is not the Chao
Phraya": ambiguous without the pauses); ``seratus juta`` for ``1.000 juta`` (``1.000`` reads as
1, the English decimal, not the Indonesian thousand: the tokenizer reads one chunk at a
time and cannot see the ``juta`` after it). Found by the variant rounds and left: Japanese
old character forms (``澁澤榮一`` for ``渋沢栄一``: zhconv folds them to simplified Chinese, not to
the Japanese new forms), Indonesian old spellings (``Surabaja``, ``Soeharto`` / ``Suharto``:
``oe`` and ``j`` cannot be folded without breaking ``Joe`` and ``Jakarta``), fractions outside
English, unit conversions (``3 hours`` for ``180 minutes``).
"""

from __future__ import annotations

import pytest

from judging.corrections import final_answer
from judging.equivalence import judge
from judging.normalize import _tokens_reference, tokens
from judging.numbers import read_decimal, read_number
from judging.scripts import find_in_run

JAYA = "Puncak Jaya [accept Piramida Carstensz]"
HAIKU_Q = "俳句は何音でできていますか？"
PREF_Q = "日本の都道府県はいくつありますか？"
AMEND_Q = "Which amendment to the U.S. Constitution abolished slavery?"
KO_WHO = "『노인과 바다』를 쓴 사람은 누구입니까?"
JA_WHO = "ペニシリンを発見したのは誰ですか？"

# (candidate, answerline, question, correct)
CASES = [
    # id/ms "eh" corrections
    pytest.param("Semeru, eh bukan, Puncak Jaya", JAYA, "", True, id="id-eh-bukan-to-answer"),
    pytest.param("Puncak Jaya, eh salah, Rinjani", JAYA, "", False, id="id-eh-salah-away"),
    pytest.param("Kinabalu, eh silap, Gunung Tahan", "Gunung Tahan", "", True,
                 id="ms-eh-silap-to-answer"),
    pytest.param("Jakarta, bukan Bandung", "Bandung", "", False, id="id-bukan-still-negates"),
    pytest.param("bukan Danau Toba", "Danau Toba [accept Toba]", "", False,
                 id="id-bukan-negation-unchanged"),
    # Japanese か and Korean (이)나 between two answers
    pytest.param("宮崎駿か高畑勲", "宮崎駿", "", False, id="ja-ka-hedge"),
    pytest.param("宮崎駿か、高畑勲", "宮崎駿", "", False, id="ja-ka-comma-hedge"),
    pytest.param("宮崎駿かな", "宮崎駿", "", True, id="ja-kana-guess"),
    pytest.param("宮崎駿かも", "宮崎駿", "", True, id="ja-kamo-guess"),
    pytest.param("宮崎駿かと思います", "宮崎駿", "", True, id="ja-kato-omoimasu"),
    pytest.param("宮崎駿か", "宮崎駿", "", True, id="ja-ka-question-end"),
    pytest.param("東京か東京都", "東京", "", True, id="ja-ka-same-answer-twice"),
    pytest.param("박찬욱이나 봉준호", "봉준호", "", False, id="ko-ina-hedge"),
    pytest.param("봉준호나 박찬욱", "봉준호", "", False, id="ko-na-hedge"),
    pytest.param("서울이나 부산", "서울", "", False, id="ko-ina-hedge-city"),
    pytest.param("아마 봉준호 감독일 거예요", "봉준호", "", True, id="ko-guess-unchanged"),
    pytest.param("스물하나 명", "21", "", True, id="ko-hana-is-no-particle"),
    # answers in number words are numbers
    pytest.param("empat belas", "13 [accept tiga belas]", "", False, id="ms-other-number-words"),
    pytest.param("empat belas", "tiga belas", "", False, id="ms-other-number-words-only"),
    pytest.param("tiga belas negeri", "13 [accept tiga belas]",
                 "Berapakah bilangan negeri di Malaysia?", True, id="ms-number-and-noun"),
    pytest.param("satu miliar", "seribu juta", "", True, id="id-seribu-juta-is-a-billion"),
    pytest.param("seribu", "1.000 juta [accept seribu juta]",
                 "Satu miliar sama dengan berapa juta?", True, id="id-seribu-unchanged"),
    # number words inside a phrase
    pytest.param("thế kỷ mười chín", "thế kỷ 19 [accept thế kỷ XIX]", "", True,
                 id="vi-century-in-words"),
    pytest.param("thế kỷ mười tám", "thế kỷ 19 [accept thế kỷ XIX]", "", False,
                 id="vi-other-century-in-words"),
    pytest.param("thế kỷ XVIII", "thế kỷ 19 [accept thế kỷ XIX]", "", False,
                 id="vi-other-century-roman"),
    pytest.param("Perang Dunia Kedua", "Perang Dunia 2", "", True, id="id-ordinal-in-phrase"),
    pytest.param("Perang Dunia Pertama", "Perang Dunia 2", "", False,
                 id="id-other-ordinal-in-phrase"),
    # units
    pytest.param("42.195마일", "42.195킬로미터 [accept 42.195km]", "", False, id="ko-miles-for-km"),
    pytest.param("42.195km", "42.195킬로미터 [accept 42.195km]", "", True, id="ko-km-accepted"),
    pytest.param("132 kaki", "132 meter", "", False, id="id-feet-for-meters"),
    pytest.param("100 miles", "100 kilometers", "", False, id="en-miles-for-km"),
    pytest.param("100 km", "100 kilometers", "", True, id="en-km-abbreviation"),
    pytest.param("5 dollars", "5 euros", "", False, id="en-other-currency"),
    pytest.param("10 years", "10 months", "", False, id="en-other-time-unit"),
    pytest.param("100 degrees Fahrenheit", "100 degrees Celsius [accept 100]", "", False,
                 id="en-fahrenheit-for-celsius"),
    pytest.param("100 kilometres", "100 kilometers", "", True, id="en-same-unit-spelled-otherwise"),
    pytest.param("about 100", "100 kilometers", "", True, id="en-no-unit-said"),
    pytest.param("八千八百四十八米", "8848米 [accept 8849米]", "", True, id="zh-meters-in-words"),
    pytest.param("8848英尺", "8848米", "", False, id="zh-feet-for-meters"),
    pytest.param("334メートル", "333メートル", "", False, id="ja-other-number-same-unit"),
    # number words the script rules called another word
    pytest.param("十七", "17音 [accept 十七音]", HAIKU_Q, True, id="ja-number-without-counter"),
    pytest.param("三十一音", "17音 [accept 十七音]", HAIKU_Q, False, id="ja-other-number-counter"),
    pytest.param("百分之七十", "十分之七 [accept 70%]", "", True, id="zh-percent-in-words"),
    pytest.param("四分之三", "十分之七 [accept 70%]", "", False, id="zh-other-fraction"),
    pytest.param("四十七都道府県", "47", PREF_Q, True, id="ja-number-and-question-noun"),
    pytest.param("四十六都道府県", "47", PREF_Q, False, id="ja-other-number-and-noun"),
    pytest.param("三月", "3日", "", False, id="zh-month-is-no-day"),
    # month counters
    pytest.param("열두 달", "12개월", "", True, id="ko-dal-gaewol"),
    pytest.param("열한 달", "12개월", "", False, id="ko-other-months"),
    # hiragana and katakana
    pytest.param("フジサン", "富士山 [accept ふじさん]", "", True, id="ja-katakana-for-hiragana"),
    pytest.param("フジサンです", "富士山 [accept ふじさん]", "", True, id="ja-katakana-sentence"),
    pytest.param("きじ", "キジ [accept 雉]", "", True, id="ja-hiragana-for-katakana"),
    pytest.param("カラス", "キジ [accept 雉]", "", False, id="ja-other-word-in-kana"),
    pytest.param("ボーリング", "ボウリング", "", False, id="ja-long-vowel-stays-another-word"),
    # decimals in number words
    pytest.param("ba phẩy mười bốn", "3,14", "", True, id="vi-decimal-fraction-as-number"),
    pytest.param("ba phẩy một bốn", "3,14", "", True, id="vi-decimal-digit-by-digit"),
    pytest.param("ba phẩy mười lăm", "3,14", "", False, id="vi-other-decimal"),
    pytest.param("tiga koma satu empat", "3.14", "", True, id="id-decimal"),
    pytest.param("dua koma lima", "2,5", "", True, id="id-decimal-comma"),
    pytest.param("三点一四", "3.14", "", True, id="zh-decimal"),
    pytest.param("三点一五", "3.14", "", False, id="zh-other-decimal"),
    pytest.param("삼 점 일사", "3.14", "", True, id="ko-decimal"),
    pytest.param("สามจุดหนึ่งสี่", "3.14", "", True, id="th-decimal"),
    # a currency with the word for money
    pytest.param("원화", "원", "", True, id="ko-won-hwa"),
    pytest.param("엔화", "원", "", False, id="ko-yen-hwa-for-won"),
    pytest.param("เงินบาท", "บาท", "", True, id="th-ngoen-baht"),
    pytest.param("เงินเยน", "บาท", "", False, id="th-ngoen-yen-for-baht"),
    pytest.param("เงินเดือน", "เดือน", "", False, id="th-salary-is-no-month"),
    pytest.param("영화", "영", "", False, id="ko-film-is-no-currency"),
    # round 3: variants of the same families in the other seed languages
    pytest.param("Hà Nội hay Huế", "Huế", "", False, id="vi-hay-hedge"),
    pytest.param("Huế hay Hà Nội", "Huế", "", False, id="vi-hay-hedge-first"),
    pytest.param("The Hay Wain", "The Hay Wain", "", True, id="en-hay-is-a-word"),
    pytest.param("Jakarta ataupun Bandung", "Jakarta", "", False, id="ms-ataupun-hedge"),
    pytest.param("北京还是上海", "上海", "", False, id="zh-haishi-hedge"),
    pytest.param("北京或是上海", "上海", "", False, id="zh-huoshi-hedge"),
    pytest.param("我觉得还是上海", "上海", "", True, id="zh-haishi-after-all"),
    pytest.param("我想还是上海", "上海", "", True, id="zh-haishi-after-all-xiang"),
    pytest.param("还是上海吧", "上海", "", True, id="zh-haishi-ba"),
    pytest.param("東京もしくは大阪", "東京", "", False, id="ja-moshikuwa-hedge"),
    pytest.param("Huế, ờ không, Hà Nội", "Hà Nội", "", True, id="vi-o-khong-correction"),
    pytest.param("Huế, không phải, Hà Nội", "Hà Nội", "", True, id="vi-khong-phai-correction"),
    pytest.param("Huế, không phải Hà Nội", "Hà Nội", "", False, id="vi-khong-phai-negates"),
    pytest.param("上海，哦不对，北京", "北京", "", True, id="zh-o-budui-correction"),
    pytest.param("上海，不是，北京", "北京", "", True, id="zh-bushi-between-commas"),
    pytest.param("上海，不是北京", "北京", "", False, id="zh-bushi-negates"),
    pytest.param("Bandung, eh maaf, Jakarta", "Jakarta", "", True, id="id-eh-maaf"),
    pytest.param("10 pounds", "10 kilograms", "", False, id="en-pounds-for-kg"),
    pytest.param("10 pounds", "10 dollars", "", False, id="en-pounds-for-dollars"),
    pytest.param("10 pounds", "10 pounds sterling", "", True, id="en-pounds-sterling"),
    pytest.param("500 won", "500 yen", "", False, id="en-won-for-yen"),
    pytest.param("the 5th century AD", "5th century BC", "", False, id="en-ad-for-bc"),
    pytest.param("1066 AD", "1066", "", True, id="en-era-not-in-answer"),
    pytest.param("十億", "10億", "", True, id="ja-digits-before-oku"),
    pytest.param("一億二千万", "1億2000万", "", True, id="ja-digits-oku-man"),
    pytest.param("千二百万", "1200万", "", True, id="ja-sen-nihyaku-man"),
    pytest.param("千三百万", "1200万", "", False, id="ja-other-man"),
    pytest.param("hai tỷ", "2 tỷ", "", True, id="vi-scale-word-answer"),
    pytest.param("ba tỷ", "2 tỷ", "", False, id="vi-other-scale-word-answer"),
    pytest.param("hai triệu", "2.000.000", "", True, id="vi-dotted-thousands"),
    pytest.param("ba triệu", "2.000.000", "", False, id="vi-other-dotted-thousands"),
    pytest.param("tujuh puluh lima kilogram", "75 kg", "", True, id="id-unit-as-counter"),
    pytest.param("tujuh puluh lima pon", "75 kg", "", False, id="id-other-unit-as-counter"),
    # round 4: particles after the answer, decades and ordinals in the other languages
    pytest.param("Yupiter kak", "Yupiter", "", True, id="id-kak-particle"),
    pytest.param("Yupiter ya", "Yupiter", "", True, id="id-ya-particle"),
    pytest.param("Medan ya", "Jakarta", "", False, id="id-ya-other-city"),
    pytest.param("bukan Jakarta ya", "Jakarta", "", False, id="id-ya-negated"),
    pytest.param("Hà Nội nhé", "Hà Nội", "", True, id="vi-nhe-particle"),
    pytest.param("nước Tây Ban Nha", "Tây Ban Nha", "", True, id="vi-nha-is-a-syllable"),
    pytest.param("Vitamin A", "Vitamin A", "", True, id="en-a-is-no-particle"),
    pytest.param("thập niên 60", "thập niên 1960", "", True, id="vi-decade-without-century"),
    pytest.param("thập niên 70", "thập niên 1960", "", False, id="vi-other-decade"),
    pytest.param("tahun 60-an", "1960-an", "", True, id="id-decade-without-century"),
    pytest.param("60년대", "1960년대", "", True, id="ko-decade-without-century"),
    pytest.param("70년대", "1960년대", "", False, id="ko-other-decade"),
    pytest.param("60年代", "1960年代", "", True, id="ja-decade-without-century"),
    pytest.param("70年代", "1960年代", "", False, id="ja-other-decade"),
    pytest.param("1965", "1960年代", "", False, id="ja-year-is-no-decade"),
    pytest.param("abad kedelapan belas", "abad ke-18", "", True, id="id-ordinal-prefix-words"),
    pytest.param("abad kesembilan belas", "abad ke-18", "", False, id="id-other-ordinal-words"),
    pytest.param("십팔 세기", "18세기", "", True, id="ko-century-in-words"),
    pytest.param("십구 세기", "18세기", "", False, id="ko-other-century-in-words"),
    # round 5: Vietnamese ranks, katakana spellings
    pytest.param("hạng nhì", "hạng nhất", "", False, id="vi-second-place-for-first"),
    pytest.param("giải ba", "giải nhất", "", False, id="vi-third-prize-for-first"),
    pytest.param("thứ nhì", "thứ hai", "", True, id="vi-nhi-is-second"),
    pytest.param("ヴァイオリン", "バイオリン", "", True, id="ja-vu-for-ba"),
    pytest.param("コンピューター", "コンピュータ", "", True, id="ja-final-long-vowel"),
    pytest.param("コンピューターです", "コンピュータ", "", True, id="ja-final-long-vowel-sentence"),
    pytest.param("プリンタ", "プリンター", "", True, id="ja-final-long-vowel-dropped"),
    pytest.param("カー", "カ", "", False, id="ja-short-word-keeps-its-mark"),
    pytest.param("スーパー", "スパ", "", False, id="ja-inner-long-vowel-stays"),
    # round 6: doubts and "definitely not X, Y"
    pytest.param("I don't think it's Paris", "Paris", "", False, id="en-doubt-negates"),
    pytest.param("I do not think it is Paris", "Paris", "", False, id="en-doubt-negates-long"),
    pytest.param("I doubt it's Paris", "Paris", "", False, id="en-i-doubt"),
    pytest.param("I think it's Paris", "Paris", "", True, id="en-think-unchanged"),
    pytest.param("Tôi không nghĩ là Hà Nội", "Hà Nội", "", False, id="vi-doubt-negates"),
    pytest.param("Saya tidak rasa Jakarta", "Jakarta", "", False, id="id-doubt-negates"),
    pytest.param("Definitely not Lyon, it's Paris", "Paris", "", True, id="en-definitely-not-x-y"),
    pytest.param("Definitely not Paris", "Paris", "", False, id="en-definitely-not-answer"),
    pytest.param("Certainly not Paris, it's Lyon", "Paris", "", False, id="en-certainly-not-answer-y"),
    # round 7: numbers read aloud in kana, a number before the same word
    pytest.param("さんびゃく", "300", "", True, id="ja-kana-number"),
    pytest.param("よんひゃく", "300", "", False, id="ja-other-kana-number"),
    pytest.param("にじゅうご", "25", "", True, id="ja-kana-tens-and-units"),
    pytest.param("くに", "92", "", False, id="ja-kana-word-is-no-number"),
    pytest.param("三十六計", "36計", "", True, id="zh-number-before-same-word"),
    pytest.param("三十七計", "36計", "", False, id="zh-other-number-before-same-word"),
    pytest.param("一千零一夜", "1001夜", "", True, id="zh-thousand-and-one-nights"),
    pytest.param("统一", "统1", "", False, id="zh-number-inside-a-word-unread"),
    # round 8: transliterated names in Hangul and in scripts without spaces
    pytest.param("마리엘 헤밍웨이", "어니스트 헤밍웨이 [accept 헤밍웨이]", KO_WHO, False,
                 id="ko-other-given-name-accepted-surname"),
    pytest.param("헤밍웨이", "어니스트 헤밍웨이 [accept 헤밍웨이]", KO_WHO, True,
                 id="ko-accepted-surname"),
    pytest.param("젭 부시", "조지 W. 부시 [accept 부시]", KO_WHO, False, id="ko-jeb-for-george"),
    pytest.param("대통령 부시", "조지 W. 부시 [accept 부시]", KO_WHO, True, id="ko-title-and-surname"),
    pytest.param("フレミング", "アレクサンダー・フレミング", JA_WHO, True, id="ja-katakana-surname"),
    pytest.param("イアン・フレミング", "アレクサンダー・フレミング [accept フレミング]", JA_WHO, False,
                 id="ja-other-given-name"),
    pytest.param("ヨーク", "ニュー・ヨーク", "アメリカ最大の都市は？", False,
                 id="ja-last-part-of-a-place"),
    pytest.param("弗莱明", "亚历山大·弗莱明", "谁发现了青霉素？", True, id="zh-transliterated-surname"),
    pytest.param("เฮมิงเวย์", "เออร์เนสต์ เฮมิงเวย์", "ใครเขียนเรื่องเฒ่าผู้พิชิต", True,
                 id="th-transliterated-surname"),
    pytest.param("เฮมิงเวย์", "เออร์เนสต์ เฮมิงเวย์", "", False, id="th-surname-needs-a-who-question"),
    # round 9: "not sure" before the answer, tag questions after it
    pytest.param("Tôi không chắc, có thể là Huế", "Huế", "", True, id="vi-not-sure-maybe-x"),
    pytest.param("Tôi không chắc", "Huế", "", False, id="vi-not-sure-alone"),
    pytest.param("Saya tidak yakin, mungkin Jakarta", "Jakarta", "", True, id="id-not-sure-maybe-x"),
    pytest.param("Saya tidak yakin, Bandung", "Jakarta", "", False, id="id-not-sure-other-city"),
    pytest.param("Jakarta bukan?", "Jakarta", "", True, id="id-bukan-tag-question"),
    pytest.param("tỉnh Quảng Đông", "Quảng Đông", "", True, id="vi-dong-is-no-particle"),
    pytest.param("Prime Minister Naoto Kan", "Naoto Kan", "", True, id="en-kan-is-no-particle"),
    pytest.param("bukan Jakarta", "Jakarta", "", False, id="id-bukan-before-still-negates"),
    pytest.param("กรุงเทพใช่ไหม", "กรุงเทพ", "", True, id="th-chai-mai-tag-question"),
    pytest.param("ไม่ใช่กรุงเทพใช่ไหม", "กรุงเทพ", "", False, id="th-negated-with-tag"),
    # round 10: installments with a subtitle
    pytest.param("Laskar Pelangi 2: Edensor", "Laskar Pelangi", "", False,
                 id="id-number-and-subtitle"),
    pytest.param("The Lord of the Rings: The Two Towers",
                 "The Lord of the Rings: The Fellowship of the Ring", "", False,
                 id="en-other-subtitle-long"),
    pytest.param("I think it is The Lord of the Rings: The Return of the King",
                 "The Lord of the Rings: The Fellowship of the Ring", "", False,
                 id="en-other-subtitle-after-a-frame"),
    pytest.param("Star Wars: Episode IV – A New Hope", "Star Wars: A New Hope", "", True,
                 id="en-subtitle-sharing-words"),
    pytest.param("John 3:16", "John 3:16", "", True, id="en-colon-unchanged"),
    # an ordinal is no given name
    pytest.param("the 13th", "Thirteenth Amendment [accept 13th Amendment]", AMEND_Q, True,
                 id="en-ordinal-with-question-noun"),
    pytest.param("the 14th", "Thirteenth Amendment [accept 13th Amendment]", AMEND_Q, False,
                 id="en-other-ordinal"),
    pytest.param("Seven", "Seven Samurai", "Which Kurosawa film follows seven ronin?", False,
                 id="en-number-word-of-a-title"),
]


@pytest.mark.parametrize(("candidate", "answerline", "question", "correct"), CASES)
def test_blind6(candidate: str, answerline: str, question: str, correct: bool) -> None:
    v = judge(candidate, answerline, question=question)
    assert v.correct is correct, (v.rule, v.explanation)


@pytest.mark.parametrize(("text", "tail"), [
    ("Semeru, eh bukan, Puncak Jaya", "Puncak Jaya"),
    ("Semeru eh bukan Puncak Jaya", "Puncak Jaya"),
    ("Puncak Jaya, eh salah, Rinjani", "Rinjani"),
    ("Surabaya, eh, bukan, Malang", "Malang"),
    ("Jakarta, bukan Bandung", None),
])
def test_eh_corrections(text: str, tail: str | None) -> None:
    assert final_answer(text) == tail


@pytest.mark.parametrize(("text", "value"), [
    ("seribu juta", 10**9),
    ("seribu sembilan ratus empat puluh lima", 1945),
    ("dua juta seribu", 2_001_000),
    ("sejuta lima ratus ribu", 1_500_000),
    ("八千八百四十八米", 8848),
    ("さんびゃく", 300),
    ("ろっぴゃく", 600),
    ("さんぜんごひゃく", 3500),
    ("ひゃく", 100),
    ("くに", None),
    ("さくら", None),
])
def test_number_words(text: str, value: int | None) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ("1億2000万", 120_000_000),
    ("10億", 10**9),
    ("3만", 30_000),
    ("1984", None),  # (digits alone are no number words)
    ("1984年", None),
])
def test_digits_before_a_scale(text: str, value: int | None) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(("text", "value"), [
    ("ba phay muoi bon", "3.14"),
    ("ba cham mot bon", "3.14"),
    ("tiga koma satu empat", "3.14"),
    ("三点零五", "3.05"),
    ("삼 점 일사", "3.14"),
    ("三点一四米", None),  # (a unit after the decimal is not read)
    ("ba phay", None),
    ("ba muoi", None),
])
def test_read_decimal(text: str, value: str | None) -> None:
    assert read_decimal(text) == value


@pytest.mark.parametrize(("text", "toks"), [
    ("2.500.000", ("2500000",)),
    ("270.000.000 jiwa", ("270000000", "jiwa")),
    ("1.000", ("1",)),  # (one point: a decimal, as in English)
    ("3.14", ("3.14",)),
    ("192.168.1.1", ("192.168.1.1",)),
])
def test_dotted_thousands(text: str, toks: tuple[str, ...]) -> None:
    assert tokens(text) == toks == _tokens_reference(text)


@pytest.mark.parametrize(("answer", "candidate", "kind"), [
    ("宮崎駿", "宮崎駿か高畑勲", "hedged"),
    ("上海", "北京还是上海", "hedged"),
    ("上海", "我觉得还是上海", "found"),
    ("宮崎駿", "宮崎駿かな", "exact"),
    ("8848米", "八千八百四十八米", "exact"),
    ("8848米", "8848英尺", "shares"),
])
def test_find_in_run(answer: str, candidate: str, kind: str) -> None:
    assert find_in_run(answer, candidate) == kind
