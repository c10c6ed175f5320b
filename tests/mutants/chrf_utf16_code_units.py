"""Takes character n-grams over UTF-16 code units (JavaScript string indexing) instead of code points."""

from independent import ChrfPlusPlus, Implementation

CLASS = "unicode"  # the class of bug (benchmarks/bench_classes.py)


def utf16_units(text):
    data = text.encode("utf-16-le", "surrogatepass")
    return [data[i : i + 2] for i in range(0, len(data), 2)]


class Chrf(ChrfPlusPlus):
    def characters(self, text):
        return utf16_units("".join(super().characters(text)))


execute = Implementation(chrf=Chrf()).execute
