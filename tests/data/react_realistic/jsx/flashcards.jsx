// Flashcard Study Deck: flip cards with spaced-repetition style grading, deck switcher, card editor and session stats
import { useState, useMemo, useEffect, useCallback } from 'react';
import { motion, AnimatePresence } from 'framer-motion';

const DECKS = {
  spanish: {
    title: 'Spanish basics',
    cards: [
      { id: 's1', front: 'la manzana', back: 'the apple' },
      { id: 's2', front: 'el perro', back: 'the dog' },
      { id: 's3', front: 'la biblioteca', back: 'the library' },
      { id: 's4', front: 'despacio', back: 'slowly' },
      { id: 's5', front: 'el ayuntamiento', back: 'the town hall' },
      { id: 's6', front: 'madrugar', back: 'to get up early' },
    ],
  },
  biology: {
    title: 'Cell biology',
    cards: [
      { id: 'b1', front: 'Mitochondria', back: 'Organelle that produces ATP through cellular respiration' },
      { id: 'b2', front: 'Ribosome', back: 'Site of protein synthesis' },
      { id: 'b3', front: 'Osmosis', back: 'Diffusion of water across a semi-permeable membrane' },
      { id: 'b4', front: 'Golgi apparatus', back: 'Modifies, sorts and packages proteins for secretion' },
    ],
  },
  capitals: {
    title: 'World capitals',
    cards: [
      { id: 'c1', front: 'Canada', back: 'Ottawa' },
      { id: 'c2', front: 'Kenya', back: 'Nairobi' },
      { id: 'c3', front: 'New Zealand', back: 'Wellington' },
      { id: 'c4', front: 'Vietnam', back: 'Hanoi' },
      { id: 'c5', front: 'Peru', back: 'Lima' },
    ],
  },
};

const GRADES = [
  { id: 'again', label: 'Again', key: '1', className: 'bg-rose-500 hover:bg-rose-600', weight: 0 },
  { id: 'hard', label: 'Hard', key: '2', className: 'bg-amber-500 hover:bg-amber-600', weight: 1 },
  { id: 'good', label: 'Good', key: '3', className: 'bg-emerald-500 hover:bg-emerald-600', weight: 2 },
  { id: 'easy', label: 'Easy', key: '4', className: 'bg-sky-500 hover:bg-sky-600', weight: 3 },
];

function buildQueue(cards) {
  return cards.map((c) => c.id);
}

export default function App() {
  const [decks, setDecks] = useState(DECKS);
  const [deckId, setDeckId] = useState('spanish');
  const [queue, setQueue] = useState(() => buildQueue(DECKS.spanish.cards));
  const [flipped, setFlipped] = useState(false);
  const [results, setResults] = useState({});
  const [reverse, setReverse] = useState(false);
  const [draft, setDraft] = useState({ front: '', back: '' });
  const [draftError, setDraftError] = useState('');

  const deck = decks[deckId];
  const cardsById = useMemo(() => Object.fromEntries(deck.cards.map((c) => [c.id, c])), [deck]);
  const current = queue.length ? cardsById[queue[0]] : null;

  const switchDeck = (id) => {
    setDeckId(id);
    setQueue(buildQueue(decks[id].cards));
    setResults({});
    setFlipped(false);
  };

  const grade = useCallback((g) => {
    if (!current || !flipped) return;
    setResults((r) => ({ ...r, [current.id]: [...(r[current.id] || []), g.id] }));
    setQueue((q) => {
      const [head, ...rest] = q;
      if (g.id === 'again') return [...rest.slice(0, 2), head, ...rest.slice(2)];
      if (g.id === 'hard') return [...rest, head];
      return rest;
    });
    setFlipped(false);
  }, [current, flipped]);

  useEffect(() => {
    const onKey = (e) => {
      if (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA') return;
      if (e.code === 'Space') { e.preventDefault(); setFlipped((f) => !f); }
      const g = GRADES.find((x) => x.key === e.key);
      if (g) grade(g);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [grade]);

  const stats = useMemo(() => {
    const all = Object.values(results).flat();
    const first = Object.values(results).map((r) => r[0]);
    return {
      reviews: all.length,
      firstTry: first.filter((g) => g === 'good' || g === 'easy').length,
      seen: Object.keys(results).length,
      score: all.length ? Math.round((all.reduce((s, id) => s + GRADES.find((g) => g.id === id).weight, 0) / (all.length * 3)) * 100) : 0,
    };
  }, [results]);

  const addCard = (e) => {
    e.preventDefault();
    const front = draft.front.trim();
    const back = draft.back.trim();
    if (!front || !back) return setDraftError('Both sides need text');
    if (deck.cards.some((c) => c.front.toLowerCase() === front.toLowerCase())) return setDraftError('That card already exists');
    const card = { id: `${deckId}-${Date.now()}`, front, back };
    setDecks((d) => ({ ...d, [deckId]: { ...d[deckId], cards: [...d[deckId].cards, card] } }));
    setQueue((q) => [...q, card.id]);
    setDraft({ front: '', back: '' });
    setDraftError('');
    return undefined;
  };

  const progress = deck.cards.length ? ((deck.cards.length - queue.length) / deck.cards.length) * 100 : 0;
  const front = current ? (reverse ? current.back : current.front) : '';
  const back = current ? (reverse ? current.front : current.back) : '';

  return (
    <div className="min-h-screen bg-gradient-to-b from-indigo-50 to-white text-slate-800 py-10">
      <div className="max-w-3xl mx-auto px-6">
        <header className="flex items-center justify-between">
          <h1 className="text-2xl font-bold">Study</h1>
          <div className="flex gap-2">
            {Object.entries(decks).map(([id, d]) => (
              <button key={id} onClick={() => switchDeck(id)} className={`px-3 py-1.5 rounded-full text-sm ${id === deckId ? 'bg-indigo-600 text-white' : 'bg-white border border-slate-200'}`}>
                {d.title} <span className="opacity-60">({d.cards.length})</span>
              </button>
            ))}
          </div>
        </header>

        <div className="flex items-center gap-3 mt-6 text-sm text-slate-500">
          <div className="flex-1 h-2 bg-slate-200 rounded-full overflow-hidden"><div className="h-full bg-indigo-500 transition-all" style={{ width: `${progress}%` }} /></div>
          <span>{queue.length} left</span>
          <label className="flex items-center gap-1"><input type="checkbox" checked={reverse} onChange={(e) => setReverse(e.target.checked)} /> Reverse</label>
        </div>

        <div className="mt-8 h-72 [perspective:1200px]">
          <AnimatePresence mode="wait">
            {current ? (
              <motion.div
                key={current.id + queue.length}
                initial={{ opacity: 0, y: 30 }}
                animate={{ opacity: 1, y: 0 }}
                exit={{ opacity: 0, x: -80 }}
                transition={{ duration: 0.25 }}
                className="w-full h-full"
              >
                <motion.button
                  onClick={() => setFlipped((f) => !f)}
                  animate={{ rotateY: flipped ? 180 : 0 }}
                  transition={{ duration: 0.45 }}
                  style={{ transformStyle: 'preserve-3d' }}
                  className="relative w-full h-full"
                  aria-label="Flip card"
                >
                  <div className="absolute inset-0 bg-white rounded-3xl shadow-xl flex flex-col items-center justify-center p-8 [backface-visibility:hidden]">
                    <p className="text-xs uppercase tracking-widest text-slate-400">{reverse ? 'Answer side' : 'Prompt'}</p>
                    <p className="text-4xl font-semibold mt-4 text-center">{front}</p>
                    <p className="text-xs text-slate-400 mt-8">Click or press Space to reveal</p>
                  </div>
                  <div className="absolute inset-0 bg-indigo-600 text-white rounded-3xl shadow-xl flex flex-col items-center justify-center p-8 [backface-visibility:hidden] [transform:rotateY(180deg)]">
                    <p className="text-xs uppercase tracking-widest text-indigo-200">Answer</p>
                    <p className="text-3xl font-semibold mt-4 text-center">{back}</p>
                  </div>
                </motion.button>
              </motion.div>
            ) : (
              <motion.div key="done" initial={{ opacity: 0, scale: 0.95 }} animate={{ opacity: 1, scale: 1 }} className="w-full h-full bg-white rounded-3xl shadow-xl flex flex-col items-center justify-center">
                <p className="text-5xl">🎉</p>
                <p className="text-2xl font-bold mt-4">Deck complete!</p>
                <p className="text-slate-500 mt-2">{stats.firstTry} of {stats.seen} recalled on the first try · score {stats.score}%</p>
                <button onClick={() => switchDeck(deckId)} className="mt-6 px-5 py-2 rounded-lg bg-indigo-600 text-white font-medium">Study again</button>
              </motion.div>
            )}
          </AnimatePresence>
        </div>

        {current && (
          <div className="grid grid-cols-4 gap-3 mt-6">
            {GRADES.map((g) => (
              <button key={g.id} onClick={() => grade(g)} disabled={!flipped} className={`${g.className} text-white rounded-xl py-3 font-semibold disabled:opacity-30 disabled:cursor-not-allowed`}>
                {g.label} <span className="text-xs opacity-70">({g.key})</span>
              </button>
            ))}
          </div>
        )}

        <div className="grid grid-cols-3 gap-4 mt-8 text-center">
          <div className="bg-white rounded-xl p-4 shadow-sm"><p className="text-2xl font-bold">{stats.reviews}</p><p className="text-xs text-slate-500">reviews</p></div>
          <div className="bg-white rounded-xl p-4 shadow-sm"><p className="text-2xl font-bold">{stats.seen}/{deck.cards.length}</p><p className="text-xs text-slate-500">cards seen</p></div>
          <div className="bg-white rounded-xl p-4 shadow-sm"><p className="text-2xl font-bold">{stats.score}%</p><p className="text-xs text-slate-500">recall score</p></div>
        </div>

        <form onSubmit={addCard} className="mt-8 bg-white rounded-xl p-5 shadow-sm">
          <h2 className="font-semibold mb-3">Add a card to “{deck.title}”</h2>
          <div className="grid grid-cols-2 gap-3">
            <input value={draft.front} onChange={(e) => setDraft({ ...draft, front: e.target.value })} placeholder="Front" className="border border-slate-200 rounded-lg px-3 py-2" />
            <input value={draft.back} onChange={(e) => setDraft({ ...draft, back: e.target.value })} placeholder="Back" className="border border-slate-200 rounded-lg px-3 py-2" />
          </div>
          {draftError && <p className="text-sm text-rose-600 mt-2">{draftError}</p>}
          <button className="mt-3 px-4 py-2 rounded-lg bg-slate-900 text-white text-sm">Add card</button>
        </form>
      </div>
    </div>
  );
}
