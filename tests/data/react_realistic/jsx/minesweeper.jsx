// Minesweeper: three difficulty levels, flagging with right-click, flood reveal, timer and first-click safety
import { useState, useEffect, useMemo, useCallback } from 'react';
import { Flag, Bomb, Timer, Smile, Frown, PartyPopper } from 'lucide-react';

const LEVELS = {
  beginner: { rows: 9, cols: 9, mines: 10 },
  intermediate: { rows: 16, cols: 16, mines: 40 },
  expert: { rows: 16, cols: 30, mines: 99 },
};

const NUMBER_COLORS = ['', 'text-blue-600', 'text-green-700', 'text-red-600', 'text-indigo-800', 'text-rose-800', 'text-teal-600', 'text-black', 'text-gray-500'];

function makeGrid(rows, cols) {
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: cols }, (_, c) => ({ r, c, mine: false, revealed: false, flagged: false, adjacent: 0 }))
  );
}

function neighbours(grid, r, c) {
  const out = [];
  for (let dr = -1; dr <= 1; dr += 1) {
    for (let dc = -1; dc <= 1; dc += 1) {
      if (dr === 0 && dc === 0) continue;
      const row = grid[r + dr];
      if (row && row[c + dc]) out.push(row[c + dc]);
    }
  }
  return out;
}

function plantMines(grid, mines, safeR, safeC) {
  const rows = grid.length;
  const cols = grid[0].length;
  const next = grid.map((row) => row.map((cell) => ({ ...cell })));
  let placed = 0;
  while (placed < mines) {
    const r = Math.floor(Math.random() * rows);
    const c = Math.floor(Math.random() * cols);
    const nearSafe = Math.abs(r - safeR) <= 1 && Math.abs(c - safeC) <= 1;
    if (next[r][c].mine || nearSafe) continue;
    next[r][c].mine = true;
    placed += 1;
  }
  next.forEach((row) => row.forEach((cell) => {
    cell.adjacent = neighbours(next, cell.r, cell.c).filter((n) => n.mine).length;
  }));
  return next;
}

function floodReveal(grid, r, c) {
  const next = grid.map((row) => row.map((cell) => ({ ...cell })));
  const stack = [[r, c]];
  while (stack.length) {
    const [cr, cc] = stack.pop();
    const cell = next[cr][cc];
    if (cell.revealed || cell.flagged) continue;
    cell.revealed = true;
    if (cell.adjacent === 0 && !cell.mine) {
      neighbours(next, cr, cc).forEach((n) => {
        if (!n.revealed && !n.mine) stack.push([n.r, n.c]);
      });
    }
  }
  return next;
}

function useStopwatch(running) {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (!running) return undefined;
    const id = setInterval(() => setSeconds((s) => Math.min(999, s + 1)), 1000);
    return () => clearInterval(id);
  }, [running]);
  return [seconds, setSeconds];
}

export default function App() {
  const [level, setLevel] = useState('beginner');
  const config = LEVELS[level];
  const [grid, setGrid] = useState(() => makeGrid(config.rows, config.cols));
  const [status, setStatus] = useState('idle'); // idle | playing | won | lost
  const [seconds, setSeconds] = useStopwatch(status === 'playing');

  const restart = useCallback((nextLevel) => {
    const cfg = LEVELS[nextLevel];
    setGrid(makeGrid(cfg.rows, cfg.cols));
    setStatus('idle');
    setSeconds(0);
  }, [setSeconds]);

  const flagsUsed = useMemo(() => grid.flat().filter((c) => c.flagged).length, [grid]);

  const checkWin = (g) => g.flat().every((cell) => cell.mine || cell.revealed);

  const reveal = (r, c) => {
    if (status === 'won' || status === 'lost') return;
    let g = grid;
    if (status === 'idle') {
      g = plantMines(grid, config.mines, r, c);
      setStatus('playing');
    }
    const cell = g[r][c];
    if (cell.flagged || cell.revealed) return;
    if (cell.mine) {
      setGrid(g.map((row) => row.map((x) => (x.mine ? { ...x, revealed: true } : x))));
      setStatus('lost');
      return;
    }
    const next = floodReveal(g, r, c);
    setGrid(next);
    if (checkWin(next)) setStatus('won');
  };

  const chord = (r, c) => {
    const cell = grid[r][c];
    if (!cell.revealed || cell.adjacent === 0 || status !== 'playing') return;
    const around = neighbours(grid, r, c);
    if (around.filter((n) => n.flagged).length !== cell.adjacent) return;
    let next = grid;
    let boom = false;
    around.forEach((n) => {
      if (n.flagged || n.revealed) return;
      if (n.mine) boom = true;
      else next = floodReveal(next, n.r, n.c);
    });
    if (boom) {
      setGrid(next.map((row) => row.map((x) => (x.mine ? { ...x, revealed: true } : x))));
      setStatus('lost');
      return;
    }
    setGrid(next);
    if (checkWin(next)) setStatus('won');
  };

  const toggleFlag = (e, r, c) => {
    e.preventDefault();
    if (status === 'won' || status === 'lost') return;
    const cell = grid[r][c];
    if (cell.revealed) return;
    setGrid(grid.map((row) => row.map((x) => (x.r === r && x.c === c ? { ...x, flagged: !x.flagged } : x))));
  };

  const changeLevel = (next) => {
    setLevel(next);
    restart(next);
  };

  const face = status === 'lost' ? <Frown className="w-6 h-6" /> : status === 'won' ? <PartyPopper className="w-6 h-6" /> : <Smile className="w-6 h-6" />;

  return (
    <div className="min-h-screen bg-gradient-to-br from-slate-200 to-slate-300 flex flex-col items-center py-10">
      <h1 className="text-3xl font-bold text-slate-800 mb-2">Minesweeper</h1>
      <p className="text-slate-600 text-sm mb-6">Left-click to reveal, right-click to flag, double-click a number to chord.</p>

      <div className="flex gap-2 mb-4">
        {Object.keys(LEVELS).map((name) => (
          <button
            key={name}
            onClick={() => changeLevel(name)}
            className={`capitalize px-4 py-1.5 rounded-md text-sm font-medium ${level === name ? 'bg-slate-800 text-white' : 'bg-white text-slate-700 hover:bg-slate-100'}`}
          >
            {name}
          </button>
        ))}
      </div>

      <div className="bg-slate-100 rounded-xl shadow-lg p-4">
        <div className="flex items-center justify-between mb-3 px-1">
          <div className="flex items-center gap-2 bg-slate-900 text-red-400 font-mono text-xl px-3 py-1 rounded">
            <Flag className="w-4 h-4" /> {String(config.mines - flagsUsed).padStart(3, '0')}
          </div>
          <button onClick={() => restart(level)} className="bg-yellow-300 hover:bg-yellow-400 rounded-full p-2 shadow" aria-label="New game">
            {face}
          </button>
          <div className="flex items-center gap-2 bg-slate-900 text-red-400 font-mono text-xl px-3 py-1 rounded">
            <Timer className="w-4 h-4" /> {String(seconds).padStart(3, '0')}
          </div>
        </div>

        <div className="inline-grid gap-px bg-slate-400 p-px" style={{ gridTemplateColumns: `repeat(${config.cols}, 1.75rem)` }}>
          {grid.map((row) =>
            row.map((cell) => {
              let content = null;
              if (cell.revealed && cell.mine) content = <Bomb className="w-4 h-4" />;
              else if (cell.revealed && cell.adjacent > 0) content = cell.adjacent;
              else if (!cell.revealed && cell.flagged) content = <Flag className="w-4 h-4 text-red-600" />;
              return (
                <button
                  key={`${cell.r}-${cell.c}`}
                  onClick={() => reveal(cell.r, cell.c)}
                  onDoubleClick={() => chord(cell.r, cell.c)}
                  onContextMenu={(e) => toggleFlag(e, cell.r, cell.c)}
                  className={`w-7 h-7 flex items-center justify-center text-sm font-bold select-none ${
                    cell.revealed
                      ? cell.mine ? 'bg-red-400' : `bg-slate-50 ${NUMBER_COLORS[cell.adjacent]}`
                      : 'bg-slate-300 hover:bg-slate-200'
                  }`}
                >
                  {content}
                </button>
              );
            })
          )}
        </div>
      </div>

      {status === 'won' && (
        <div className="mt-6 bg-emerald-100 text-emerald-800 px-6 py-3 rounded-lg font-medium">
          Cleared the field in {seconds} seconds on {level}!
        </div>
      )}
      {status === 'lost' && (
        <div className="mt-6 bg-rose-100 text-rose-800 px-6 py-3 rounded-lg font-medium">
          Boom. Click the face to try again.
        </div>
      )}
    </div>
  );
}
