"""bleu-sentence-components: keys n-grams by `ngram.join()` (Array.prototype.join's default comma), so
tokens holding commas collide: ("a,b", "c") equals ("a", "b,c")."""

from independent import BleuSentenceComponents, Implementation

from mutants.bleu_ngrams_keyed_by_joined_string import Statistics as JoinedKeyStatistics

CLASS = "derived-key"  # the class of bug (benchmarks/bench_classes.py)


class Statistics(JoinedKeyStatistics):
    SEPARATOR = ","


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute
