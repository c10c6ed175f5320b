"""bleu-sentence-components: keys n-grams by `ngram.join()` (Array.prototype.join's default comma), so
tokens holding commas collide: ("a,b", "c") equals ("a", "b,c")."""
CLASS = "derived-key"  # the class of bug (benchmarks/bench_classes.py)
from independent import BleuSentenceComponents, BleuStatistics, Implementation
from independent.bleu import Segment


class Statistics(BleuStatistics):
    def segment(self, hypothesis, references, max_order):
        def count(tokens, n):
            found = {}
            for i in range(len(tokens) - n + 1):
                key = ",".join(tokens[i:i + n])
                found[key] = found.get(key, 0) + 1
            return found

        matches, totals = [], []
        for n in range(1, max_order + 1):
            refs = [count(r, n) for r in references]
            matches.append(sum(min(c, max(r.get(key, 0) for r in refs)) for key, c in count(hypothesis, n).items()))
            totals.append(max(0, len(hypothesis) - n + 1))
        return Segment(len(hypothesis), matches, totals, [])


execute = Implementation(sentence_components=BleuSentenceComponents(Statistics())).execute
