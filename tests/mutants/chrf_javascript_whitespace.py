"""Uses JavaScript's \\s as the whitespace set: removes U+FEFF, keeps U+001C-U+001F and U+0085."""

import re

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)

JS_SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")


class Chrf(ChrfPlusPlus):
    def characters(self, text):
        return list(JS_SPACE.sub("", text))

    def split_words(self, text):
        return [w for w in JS_SPACE.split(text) if w]


execute = Implementation(chrf=Chrf()).execute
