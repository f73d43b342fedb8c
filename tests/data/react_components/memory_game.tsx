import { useEffect, useState } from "react";

const SYMBOLS = ["🍎", "🍋", "🍇", "🍒", "🥝", "🍑"];

function shuffled(): string[] {
  const deck = [...SYMBOLS, ...SYMBOLS];
  let seed = 7;
  for (let i = deck.length - 1; i > 0; i--) {
    seed = (seed * 9301 + 49297) % 233280;
    const j = seed % (i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

export default function App() {
  const [deck] = useState(shuffled);
  const [open, setOpen] = useState<number[]>([]);
  const [found, setFound] = useState<Set<string>>(new Set());
  const [moves, setMoves] = useState(0);

  useEffect(() => {
    if (open.length !== 2) return;
    const [a, b] = open;
    const t = setTimeout(() => {
      if (deck[a] === deck[b]) setFound((f) => new Set(f).add(deck[a]));
      setOpen([]);
    }, 600);
    return () => clearTimeout(t);
  }, [open, deck]);

  const flip = (i: number) => {
    if (open.length === 2 || open.includes(i) || found.has(deck[i])) return;
    setOpen([...open, i]);
    if (open.length === 1) setMoves((m) => m + 1);
  };

  return (
    <div className="p-8 flex flex-col items-center">
      <p className="mb-4">Moves: {moves} · Pairs: {found.size}/{SYMBOLS.length}</p>
      <div className="grid grid-cols-4 gap-3">
        {deck.map((sym, i) => (
          <button key={i} className="w-20 h-20 text-4xl rounded-lg bg-indigo-200" onClick={() => flip(i)}>
            {open.includes(i) || found.has(sym) ? sym : "?"}
          </button>
        ))}
      </div>
    </div>
  );
}
