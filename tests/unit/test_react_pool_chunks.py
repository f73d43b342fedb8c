"""CheckPool's chunks: every sample once, at most ``size`` each, about equal work (issue #25)."""

from bot_repro.tasks.react.workers import balanced_chunks

JS = frozenset({"jsx", "js", "javascript"})


def test_chunks_cover_every_sample_once_within_the_size():
    codes = ["x" * (10 + 7 * i % 50) for i in range(61)]
    chunks = balanced_chunks(codes, ["tsx" if i % 3 else "jsx" for i in range(61)], 16, JS)
    assert len(chunks) == 4 and all(len(c) <= 16 for c in chunks)
    assert sorted(i for c in chunks for i in c) == list(range(61))


def test_a_corpus_listing_javascript_first_is_split_into_equal_work():
    # As the realistic corpus: 30 JSX apps, then 30 TSX apps (type-checked: about twice the work).
    codes = ["x" * 300] * 60
    langs = ["jsx"] * 30 + ["tsx"] * 30
    chunks = balanced_chunks(codes, langs, 30, JS)
    work = [sum(300 * (1 if langs[i] == "jsx" else 2) for i in c) for c in chunks]
    assert work[0] == work[1], work  # plain halves would be 9,000 vs 18,000
    assert all(sum(langs[i] == "tsx" for i in c) == 15 for c in chunks)


def test_without_fence_tags_length_decides_and_the_heaviest_chunk_goes_first():
    codes = ["x" * n for n in (900, 100, 100, 100, 500, 400)]
    chunks = balanced_chunks(codes, None, 3, JS)
    assert chunks == [[0, 1, 3], [2, 4, 5]]  # 1,100 and 1,000 characters (x2: may be TypeScript)
