// Tic-Tac-Toe AI: play against a minimax computer opponent with difficulty levels, move history with time travel and a running scoreboard
import { useEffect, useMemo, useState } from 'react';

type Player = 'X' | 'O';
type Cell = Player | null;
type Board = Cell[];
type Difficulty = 'easy' | 'medium' | 'impossible';

interface Score {
  X: number;
  O: number;
  draws: number;
}

const LINES: [number, number, number][] = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

function winnerOf(board: Board): { player: Player; line: number[] } | null {
  for (const [a, b, c] of LINES) {
    const p = board[a];
    if (p && p === board[b] && p === board[c]) return { player: p, line: [a, b, c] };
  }
  return null;
}

function emptyCells(board: Board): number[] {
  return board.reduce<number[]>((acc, cell, i) => (cell === null ? [...acc, i] : acc), []);
}

function minimax(board: Board, turn: Player, ai: Player, depth: number): number {
  const win = winnerOf(board);
  if (win) return win.player === ai ? 10 - depth : depth - 10;
  const free = emptyCells(board);
  if (free.length === 0) return 0;
  const scores = free.map((i) => {
    const next = [...board];
    next[i] = turn;
    return minimax(next, turn === 'X' ? 'O' : 'X', ai, depth + 1);
  });
  return turn === ai ? Math.max(...scores) : Math.min(...scores);
}

function chooseMove(board: Board, ai: Player, difficulty: Difficulty): number {
  const free = emptyCells(board);
  const randomMove = free[Math.floor(Math.random() * free.length)];
  const mistakeChance = difficulty === 'easy' ? 0.7 : difficulty === 'medium' ? 0.3 : 0;
  if (Math.random() < mistakeChance) return randomMove;
  let best = randomMove;
  let bestScore = -Infinity;
  for (const i of free) {
    const next = [...board];
    next[i] = ai;
    const score = minimax(next, ai === 'X' ? 'O' : 'X', ai, 1);
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  return best;
}

const EMPTY: Board = Array<Cell>(9).fill(null);

export default function App() {
  const [history, setHistory] = useState<Board[]>([EMPTY]);
  const [step, setStep] = useState(0);
  const [human, setHuman] = useState<Player>('X');
  const [difficulty, setDifficulty] = useState<Difficulty>('medium');
  const [score, setScore] = useState<Score>({ X: 0, O: 0, draws: 0 });
  const [recorded, setRecorded] = useState(false);

  const board = history[step];
  const turn: Player = step % 2 === 0 ? 'X' : 'O';
  const ai: Player = human === 'X' ? 'O' : 'X';
  const win = useMemo(() => winnerOf(board), [board]);
  const draw = !win && emptyCells(board).length === 0;
  const over = Boolean(win) || draw;
  const atLatest = step === history.length - 1;

  const play = (index: number) => {
    if (board[index] || over || !atLatest) return;
    const next = [...board];
    next[index] = turn;
    setHistory((h) => [...h.slice(0, step + 1), next]);
    setStep((s) => s + 1);
  };

  useEffect(() => {
    if (over || turn !== ai || !atLatest) return;
    const t = setTimeout(() => {
      const move = chooseMove(board, ai, difficulty);
      const next = [...board];
      next[move] = ai;
      setHistory((h) => [...h, next]);
      setStep((s) => s + 1);
    }, 450);
    return () => clearTimeout(t);
  }, [board, turn, ai, over, difficulty, atLatest]);

  useEffect(() => {
    if (!over || recorded || !atLatest) return;
    setScore((s) => (win ? { ...s, [win.player]: s[win.player] + 1 } : { ...s, draws: s.draws + 1 }));
    setRecorded(true);
  }, [over, recorded, atLatest, win]);

  const reset = (nextHuman: Player = human) => {
    setHuman(nextHuman);
    setHistory([EMPTY]);
    setStep(0);
    setRecorded(false);
  };

  let status: string;
  if (win) status = win.player === human ? 'You win!' : 'Computer wins';
  else if (draw) status = 'Draw';
  else status = turn === human ? 'Your move' : 'Computer is thinking…';

  return (
    <div className="flex min-h-screen items-center justify-center bg-teal-950 p-6 text-teal-50">
      <div className="flex gap-10">
        <div>
          <h1 className="mb-2 text-center text-3xl font-black tracking-tight">Tic-Tac-Toe</h1>
          <p className={`mb-4 text-center text-lg ${win ? (win.player === human ? 'text-lime-300' : 'text-rose-300') : ''}`}>{status}</p>
          <div className="grid grid-cols-3 gap-2 rounded-2xl bg-teal-900 p-2">
            {board.map((cell, i) => {
              const highlighted = win?.line.includes(i);
              return (
                <button
                  key={i}
                  onClick={() => play(i)}
                  disabled={cell !== null || over || turn !== human || !atLatest}
                  className={`flex h-28 w-28 items-center justify-center rounded-xl text-6xl font-black transition ${highlighted ? 'bg-lime-400 text-teal-950' : 'bg-teal-800 hover:bg-teal-700 disabled:hover:bg-teal-800'} ${
                    cell === 'X' ? 'text-amber-300' : 'text-sky-300'
                  } ${highlighted ? '!text-teal-950' : ''}`}
                  aria-label={`Cell ${i + 1}${cell ? `: ${cell}` : ''}`}
                >
                  {cell}
                </button>
              );
            })}
          </div>
          <div className="mt-4 flex justify-center gap-2">
            <button onClick={() => reset()} className="rounded-lg bg-teal-600 px-4 py-2 font-semibold hover:bg-teal-500">
              New game
            </button>
            <button onClick={() => reset(human === 'X' ? 'O' : 'X')} className="rounded-lg bg-teal-800 px-4 py-2 hover:bg-teal-700">
              Play as {human === 'X' ? 'O' : 'X'}
            </button>
          </div>
        </div>

        <aside className="w-64 space-y-6">
          <section className="rounded-2xl bg-teal-900 p-4">
            <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-teal-300">Score</h2>
            <div className="grid grid-cols-3 text-center">
              <div>
                <div className="text-2xl font-bold text-amber-300">{score.X}</div>
                <div className="text-xs">X {human === 'X' ? '(you)' : ''}</div>
              </div>
              <div>
                <div className="text-2xl font-bold">{score.draws}</div>
                <div className="text-xs">draws</div>
              </div>
              <div>
                <div className="text-2xl font-bold text-sky-300">{score.O}</div>
                <div className="text-xs">O {human === 'O' ? '(you)' : ''}</div>
              </div>
            </div>
          </section>
          <section className="rounded-2xl bg-teal-900 p-4">
            <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-teal-300">Difficulty</h2>
            <div className="flex gap-1">
              {(['easy', 'medium', 'impossible'] as Difficulty[]).map((d) => (
                <button key={d} onClick={() => setDifficulty(d)} className={`flex-1 rounded-md py-1 text-xs capitalize ${difficulty === d ? 'bg-teal-500 text-teal-950' : 'bg-teal-800 hover:bg-teal-700'}`}>
                  {d}
                </button>
              ))}
            </div>
          </section>
          <section className="rounded-2xl bg-teal-900 p-4">
            <h2 className="mb-2 text-sm font-semibold uppercase tracking-wide text-teal-300">Moves</h2>
            <ol className="space-y-1 text-sm">
              {history.map((_, i) => (
                <li key={i}>
                  <button onClick={() => setStep(i)} className={`w-full rounded px-2 py-1 text-left ${i === step ? 'bg-teal-700 font-semibold' : 'hover:bg-teal-800'}`}>
                    {i === 0 ? 'Start' : `Move ${i}: ${i % 2 === 1 ? 'X' : 'O'}`}
                  </button>
                </li>
              ))}
            </ol>
            {!atLatest && <p className="mt-2 text-xs text-teal-300">Viewing history. Jump to the last move to keep playing.</p>}
          </section>
        </aside>
      </div>
    </div>
  );
}
