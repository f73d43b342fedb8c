// Memory Match: animal card-matching game with grid sizes, move counter, timer, star rating and best scores
import { useState, useEffect, useMemo, useCallback } from 'react';
import { FaCat, FaDog, FaFish, FaHorse, FaFrog, FaCrow, FaDove, FaSpider, FaHippo, FaKiwiBird, FaDragon, FaOtter, FaStar, FaRedo } from 'react-icons/fa';

const ICONS = [
  { id: 'cat', Icon: FaCat, color: 'text-orange-500' },
  { id: 'dog', Icon: FaDog, color: 'text-amber-700' },
  { id: 'fish', Icon: FaFish, color: 'text-sky-500' },
  { id: 'horse', Icon: FaHorse, color: 'text-stone-600' },
  { id: 'frog', Icon: FaFrog, color: 'text-green-600' },
  { id: 'crow', Icon: FaCrow, color: 'text-slate-800' },
  { id: 'dove', Icon: FaDove, color: 'text-indigo-400' },
  { id: 'spider', Icon: FaSpider, color: 'text-rose-700' },
  { id: 'hippo', Icon: FaHippo, color: 'text-violet-500' },
  { id: 'kiwi', Icon: FaKiwiBird, color: 'text-lime-700' },
  { id: 'dragon', Icon: FaDragon, color: 'text-red-600' },
  { id: 'otter', Icon: FaOtter, color: 'text-yellow-800' },
];

const SIZES = { Small: 6, Medium: 8, Large: 12 };

function shuffle(list) {
  const a = list.slice();
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function makeDeck(pairs) {
  const chosen = shuffle(ICONS).slice(0, pairs);
  return shuffle(chosen.flatMap((icon) => [{ key: `${icon.id}-a`, icon }, { key: `${icon.id}-b`, icon }]));
}

function useTimer(running) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return undefined;
    const id = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(id);
  }, [running]);
  return [seconds, setSeconds];
}

function starsFor(moves, pairs) {
  if (moves <= pairs * 1.5) return 3;
  if (moves <= pairs * 2.2) return 2;
  return 1;
}

export default function App() {
  const [size, setSize] = useState('Medium');
  const pairs = SIZES[size];
  const [deck, setDeck] = useState(() => makeDeck(SIZES.Medium));
  const [open, setOpen] = useState([]);
  const [matched, setMatched] = useState([]);
  const [moves, setMoves] = useState(0);
  const [started, setStarted] = useState(false);
  const [best, setBest] = useState({});
  const won = matched.length === deck.length && deck.length > 0;
  const [seconds, setSeconds] = useTimer(started && !won);

  const restart = useCallback((nextSize) => {
    setDeck(makeDeck(SIZES[nextSize]));
    setOpen([]);
    setMatched([]);
    setMoves(0);
    setStarted(false);
    setSeconds(0);
  }, [setSeconds]);

  useEffect(() => {
    if (open.length !== 2) return undefined;
    const [a, b] = open;
    const same = deck[a].icon.id === deck[b].icon.id;
    const id = setTimeout(() => {
      if (same) setMatched((m) => [...m, a, b]);
      setOpen([]);
    }, same ? 350 : 850);
    return () => clearTimeout(id);
  }, [open, deck]);

  useEffect(() => {
    if (!won) return;
    setBest((b) => {
      const prev = b[size];
      if (prev && (prev.moves < moves || (prev.moves === moves && prev.seconds <= seconds))) return b;
      return { ...b, [size]: { moves, seconds } };
    });
  }, [won, size, moves, seconds]);

  useEffect(() => {
    const onKey = (e) => { if (e.key === 'r') restart(size); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [restart, size]);

  const flip = (index) => {
    if (open.length === 2 || open.includes(index) || matched.includes(index)) return;
    if (!started) setStarted(true);
    const next = [...open, index];
    setOpen(next);
    if (next.length === 2) setMoves((m) => m + 1);
  };

  const stars = starsFor(moves, pairs);
  const cols = pairs === 6 ? 'grid-cols-4' : pairs === 8 ? 'grid-cols-4' : 'grid-cols-6';
  const progress = useMemo(() => Math.round((matched.length / deck.length) * 100), [matched, deck]);
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

  return (
    <div className="min-h-screen bg-gradient-to-br from-teal-100 via-cyan-50 to-sky-100 flex flex-col items-center py-10">
      <h1 className="text-4xl font-black text-teal-900">Critter Match</h1>
      <p className="text-teal-700 mt-1">Find all the pairs in as few moves as you can.</p>

      <div className="flex items-center gap-2 mt-6">
        {Object.keys(SIZES).map((s) => (
          <button key={s} onClick={() => { setSize(s); restart(s); }} className={`px-4 py-1.5 rounded-full text-sm font-semibold ${size === s ? 'bg-teal-700 text-white' : 'bg-white text-teal-800'}`}>
            {s} · {SIZES[s] * 2}
          </button>
        ))}
        <button onClick={() => restart(size)} className="ml-2 p-2 rounded-full bg-white text-teal-800 hover:bg-teal-50" aria-label="Restart"><FaRedo /></button>
      </div>

      <div className="flex items-center gap-8 mt-6 bg-white/70 rounded-2xl px-6 py-3 shadow-sm">
        <div className="text-center"><p className="text-xs text-slate-500">Moves</p><p className="text-2xl font-bold text-slate-800">{moves}</p></div>
        <div className="text-center"><p className="text-xs text-slate-500">Time</p><p className="text-2xl font-bold text-slate-800 font-mono">{time}</p></div>
        <div className="text-center"><p className="text-xs text-slate-500">Rating</p>
          <p className="flex gap-0.5 text-xl mt-1">{[1, 2, 3].map((n) => <FaStar key={n} className={n <= stars ? 'text-amber-400' : 'text-slate-300'} />)}</p>
        </div>
        <div className="text-center"><p className="text-xs text-slate-500">Best ({size})</p><p className="text-sm font-semibold text-slate-700">{best[size] ? `${best[size].moves} moves · ${best[size].seconds}s` : '—'}</p></div>
      </div>

      <div className="w-96 h-1.5 bg-white rounded-full mt-4 overflow-hidden"><div className="h-full bg-teal-500 transition-all" style={{ width: `${progress}%` }} /></div>

      <div className={`grid ${cols} gap-3 mt-6`}>
        {deck.map((card, i) => {
          const faceUp = open.includes(i) || matched.includes(i);
          const isMatched = matched.includes(i);
          const { Icon } = card.icon;
          return (
            <button
              key={card.key}
              onClick={() => flip(i)}
              className={`w-24 h-24 rounded-2xl shadow-md flex items-center justify-center text-4xl transition-all duration-300 ${
                faceUp ? `bg-white ${card.icon.color}` : 'bg-teal-600 hover:bg-teal-500 text-teal-600'
              } ${isMatched ? 'ring-4 ring-emerald-300 scale-95' : ''}`}
              aria-label={faceUp ? card.icon.id : 'Hidden card'}
            >
              {faceUp ? <Icon /> : <span className="text-teal-300 text-2xl font-black">?</span>}
            </button>
          );
        })}
      </div>

      {won && (
        <div className="mt-8 bg-white rounded-2xl shadow-lg px-8 py-5 text-center">
          <p className="text-2xl font-bold text-teal-800">You matched them all!</p>
          <p className="text-slate-600 mt-1">{moves} moves in {time} · {stars} star{stars > 1 ? 's' : ''}</p>
          <button onClick={() => restart(size)} className="mt-4 px-5 py-2 rounded-lg bg-teal-700 text-white font-semibold">Play again</button>
        </div>
      )}
      <p className="text-xs text-teal-700/70 mt-6">Press R to reshuffle.</p>
    </div>
  );
}
