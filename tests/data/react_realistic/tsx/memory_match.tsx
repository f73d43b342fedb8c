// Memory Match: flip-card pairs game with animated cards, difficulty levels, move counter, timer and star rating
import { useEffect, useMemo, useState } from 'react';
import { motion, AnimatePresence } from 'framer-motion';
import { Star, RotateCcw, Timer, Trophy } from 'lucide-react';

type Difficulty = 'easy' | 'medium' | 'hard';

interface Card {
  id: number;
  symbol: string;
  matched: boolean;
}

const SYMBOLS = ['🍎', '🚀', '🎸', '🌵', '🐙', '🎲', '⚡', '🍩', '🦊', '🌈', '🎈', '🧩'];
const PAIRS: Record<Difficulty, number> = { easy: 6, medium: 8, hard: 12 };
const COLUMNS: Record<Difficulty, string> = { easy: 'grid-cols-4', medium: 'grid-cols-4', hard: 'grid-cols-6' };

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

function makeDeck(difficulty: Difficulty): Card[] {
  const symbols = SYMBOLS.slice(0, PAIRS[difficulty]);
  return shuffle([...symbols, ...symbols]).map((symbol, id) => ({ id, symbol, matched: false }));
}

function starsFor(moves: number, pairs: number): number {
  if (moves <= pairs + 2) return 3;
  if (moves <= pairs * 2) return 2;
  return 1;
}

function formatClock(s: number): string {
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export default function App() {
  const [difficulty, setDifficulty] = useState<Difficulty>('easy');
  const [deck, setDeck] = useState<Card[]>(() => makeDeck('easy'));
  const [flipped, setFlipped] = useState<number[]>([]);
  const [moves, setMoves] = useState(0);
  const [seconds, setSeconds] = useState(0);
  const [started, setStarted] = useState(false);
  const [bestMoves, setBestMoves] = useState<Partial<Record<Difficulty, number>>>({});

  const matchedCount = useMemo(() => deck.filter((c) => c.matched).length / 2, [deck]);
  const won = matchedCount === PAIRS[difficulty];

  useEffect(() => {
    if (!started || won) return;
    const id = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(id);
  }, [started, won]);

  useEffect(() => {
    if (flipped.length !== 2) return;
    const [a, b] = flipped;
    const same = deck[a]?.symbol === deck[b]?.symbol;
    const t = setTimeout(
      () => {
        if (same) setDeck((d) => d.map((c, i) => (i === a || i === b ? { ...c, matched: true } : c)));
        setFlipped([]);
      },
      same ? 300 : 800,
    );
    return () => clearTimeout(t);
  }, [flipped, deck]);

  useEffect(() => {
    if (!won) return;
    setBestMoves((b) => {
      const prev = b[difficulty];
      return prev === undefined || moves < prev ? { ...b, [difficulty]: moves } : b;
    });
  }, [won, moves, difficulty]);

  const newGame = (d: Difficulty = difficulty) => {
    setDifficulty(d);
    setDeck(makeDeck(d));
    setFlipped([]);
    setMoves(0);
    setSeconds(0);
    setStarted(false);
  };

  const flip = (index: number) => {
    const card = deck[index];
    if (!card || card.matched || flipped.includes(index) || flipped.length === 2) return;
    if (!started) setStarted(true);
    const next = [...flipped, index];
    setFlipped(next);
    if (next.length === 2) setMoves((m) => m + 1);
  };

  const stars = starsFor(moves, PAIRS[difficulty]);

  return (
    <div className="min-h-screen bg-gradient-to-br from-fuchsia-600 via-purple-600 to-indigo-700 p-8 text-white">
      <div className="mx-auto max-w-3xl">
        <header className="mb-6 flex flex-wrap items-center justify-between gap-4">
          <h1 className="text-3xl font-extrabold tracking-tight">Memory Match</h1>
          <div className="flex gap-2">
            {(Object.keys(PAIRS) as Difficulty[]).map((d) => (
              <button
                key={d}
                onClick={() => newGame(d)}
                className={`rounded-full px-4 py-1.5 text-sm font-semibold capitalize ${difficulty === d ? 'bg-white text-purple-700' : 'bg-white/15 hover:bg-white/25'}`}
              >
                {d}
              </button>
            ))}
          </div>
        </header>

        <div className="mb-6 flex items-center justify-between rounded-2xl bg-white/10 px-5 py-3 backdrop-blur">
          <div className="flex items-center gap-1">
            {[1, 2, 3].map((i) => (
              <Star key={i} size={20} className={i <= stars ? 'fill-yellow-300 text-yellow-300' : 'text-white/30'} />
            ))}
          </div>
          <span className="text-sm">Moves: {moves}</span>
          <span className="text-sm">
            Pairs: {matchedCount}/{PAIRS[difficulty]}
          </span>
          <span className="flex items-center gap-1 text-sm">
            <Timer size={16} /> {formatClock(seconds)}
          </span>
          <button onClick={() => newGame()} className="flex items-center gap-1 rounded-full bg-white/20 px-3 py-1 text-sm hover:bg-white/30">
            <RotateCcw size={14} /> Restart
          </button>
        </div>

        <div className={`grid gap-3 ${COLUMNS[difficulty]}`}>
          {deck.map((card, index) => {
            const faceUp = card.matched || flipped.includes(index);
            return (
              <button key={card.id} onClick={() => flip(index)} className="aspect-square [perspective:800px]" aria-label={faceUp ? card.symbol : 'Hidden card'}>
                <motion.div
                  className="relative h-full w-full [transform-style:preserve-3d]"
                  animate={{ rotateY: faceUp ? 180 : 0 }}
                  transition={{ duration: 0.35 }}
                >
                  <div className="absolute inset-0 flex items-center justify-center rounded-xl bg-white/20 text-2xl font-bold shadow-lg [backface-visibility:hidden] hover:bg-white/30">
                    ?
                  </div>
                  <div
                    className={`absolute inset-0 flex items-center justify-center rounded-xl text-4xl shadow-lg [backface-visibility:hidden] [transform:rotateY(180deg)] ${
                      card.matched ? 'bg-emerald-300' : 'bg-white'
                    }`}
                  >
                    {card.symbol}
                  </div>
                </motion.div>
              </button>
            );
          })}
        </div>

        <p className="mt-6 text-center text-sm text-white/70">
          Best for {difficulty}: {bestMoves[difficulty] !== undefined ? `${bestMoves[difficulty]} moves` : 'no record yet'}
        </p>
      </div>

      <AnimatePresence>
        {won && (
          <motion.div className="fixed inset-0 flex items-center justify-center bg-black/50" initial={{ opacity: 0 }} animate={{ opacity: 1 }} exit={{ opacity: 0 }}>
            <motion.div
              initial={{ scale: 0.8, y: 30 }}
              animate={{ scale: 1, y: 0 }}
              exit={{ scale: 0.8, y: 30 }}
              className="w-80 rounded-3xl bg-white p-8 text-center text-gray-900 shadow-2xl"
            >
              <Trophy size={48} className="mx-auto text-yellow-500" />
              <h2 className="mt-3 text-2xl font-bold">You did it!</h2>
              <p className="mt-1 text-gray-600">
                {moves} moves in {formatClock(seconds)}
              </p>
              <div className="mt-3 flex justify-center gap-1">
                {[1, 2, 3].map((i) => (
                  <Star key={i} size={28} className={i <= stars ? 'fill-yellow-400 text-yellow-400' : 'text-gray-300'} />
                ))}
              </div>
              <button onClick={() => newGame()} className="mt-6 w-full rounded-full bg-purple-600 py-2.5 font-semibold text-white hover:bg-purple-700">
                Play again
              </button>
            </motion.div>
          </motion.div>
        )}
      </AnimatePresence>
    </div>
  );
}
