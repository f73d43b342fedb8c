// Snake: classic arcade snake on a grid with arrow/WASD controls, speed levels and a high score
import { useState, useEffect, useRef, useCallback } from 'react';
import { Play, Pause, RotateCcw, Trophy, Zap } from 'lucide-react';

const COLS = 24;
const ROWS = 18;
const CELL = 24;
const SPEEDS = { Chill: 180, Normal: 120, Fast: 75 };
const DIRECTIONS = {
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  w: { x: 0, y: -1 },
  s: { x: 0, y: 1 },
  a: { x: -1, y: 0 },
  d: { x: 1, y: 0 },
};

function randomFood(snake) {
  const taken = new Set(snake.map((p) => `${p.x},${p.y}`));
  const free = [];
  for (let y = 0; y < ROWS; y += 1) {
    for (let x = 0; x < COLS; x += 1) {
      if (!taken.has(`${x},${y}`)) free.push({ x, y });
    }
  }
  return free[Math.floor(Math.random() * free.length)] || { x: 0, y: 0 };
}

function initialSnake() {
  return [
    { x: 8, y: 9 },
    { x: 7, y: 9 },
    { x: 6, y: 9 },
  ];
}

function useInterval(callback, delay) {
  const saved = useRef(callback);
  useEffect(() => {
    saved.current = callback;
  }, [callback]);
  useEffect(() => {
    if (delay === null) return undefined;
    const id = setInterval(() => saved.current(), delay);
    return () => clearInterval(id);
  }, [delay]);
}

export default function App() {
  const [snake, setSnake] = useState(initialSnake);
  const [food, setFood] = useState({ x: 16, y: 9 });
  const [status, setStatus] = useState('ready'); // ready | playing | paused | over
  const [score, setScore] = useState(0);
  const [best, setBest] = useState(() => {
    try {
      return Number(window.localStorage.getItem('snake-best')) || 0;
    } catch {
      return 0;
    }
  });
  const [speed, setSpeed] = useState('Normal');
  const [wrap, setWrap] = useState(false);
  const direction = useRef({ x: 1, y: 0 });
  const queued = useRef([]);
  const canvasRef = useRef(null);

  const reset = useCallback(() => {
    const s = initialSnake();
    setSnake(s);
    setFood(randomFood(s));
    setScore(0);
    direction.current = { x: 1, y: 0 };
    queued.current = [];
    setStatus('playing');
  }, []);

  useEffect(() => {
    const onKey = (e) => {
      const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (key === ' ') {
        e.preventDefault();
        setStatus((s) => (s === 'playing' ? 'paused' : s === 'paused' ? 'playing' : s));
        return;
      }
      if (key === 'Enter' && status !== 'playing') {
        reset();
        return;
      }
      const next = DIRECTIONS[key];
      if (!next) return;
      e.preventDefault();
      const last = queued.current[queued.current.length - 1] || direction.current;
      if (last.x + next.x === 0 && last.y + next.y === 0) return;
      if (queued.current.length < 3) queued.current.push(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [status, reset]);

  const step = useCallback(() => {
    if (queued.current.length) direction.current = queued.current.shift();
    const dir = direction.current;
    const head = snake[0];
    let nx = head.x + dir.x;
    let ny = head.y + dir.y;
    if (wrap) {
      nx = (nx + COLS) % COLS;
      ny = (ny + ROWS) % ROWS;
    }
    const outOfBounds = nx < 0 || ny < 0 || nx >= COLS || ny >= ROWS;
    const eating = nx === food.x && ny === food.y;
    const body = eating ? snake : snake.slice(0, -1);
    const hitsSelf = body.some((p) => p.x === nx && p.y === ny);
    if (outOfBounds || hitsSelf) {
      setStatus('over');
      if (score > best) {
        setBest(score);
        try {
          window.localStorage.setItem('snake-best', String(score));
        } catch {
          // ignore storage failures
        }
      }
      return;
    }
    const nextSnake = [{ x: nx, y: ny }, ...body];
    setSnake(nextSnake);
    if (eating) {
      setScore((s) => s + 10);
      setFood(randomFood(nextSnake));
    }
  }, [snake, food, wrap, score, best]);

  useInterval(step, status === 'playing' ? SPEEDS[speed] : null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.fillStyle = '#0f172a';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.strokeStyle = '#1e293b';
    for (let x = 0; x <= COLS; x += 1) {
      ctx.beginPath();
      ctx.moveTo(x * CELL, 0);
      ctx.lineTo(x * CELL, ROWS * CELL);
      ctx.stroke();
    }
    for (let y = 0; y <= ROWS; y += 1) {
      ctx.beginPath();
      ctx.moveTo(0, y * CELL);
      ctx.lineTo(COLS * CELL, y * CELL);
      ctx.stroke();
    }
    ctx.fillStyle = '#f43f5e';
    ctx.beginPath();
    ctx.arc(food.x * CELL + CELL / 2, food.y * CELL + CELL / 2, CELL / 2.6, 0, Math.PI * 2);
    ctx.fill();
    snake.forEach((p, i) => {
      ctx.fillStyle = i === 0 ? '#4ade80' : `hsl(142, 70%, ${Math.max(28, 50 - i)}%)`;
      ctx.fillRect(p.x * CELL + 2, p.y * CELL + 2, CELL - 4, CELL - 4);
    });
  }, [snake, food]);

  const length = snake.length;

  return (
    <div className="min-h-screen bg-slate-950 text-slate-100 flex items-center justify-center">
      <div className="flex gap-8 items-start">
        <div className="relative rounded-xl overflow-hidden shadow-2xl ring-1 ring-slate-800">
          <canvas ref={canvasRef} width={COLS * CELL} height={ROWS * CELL} className="block" />
          {status !== 'playing' && (
            <div className="absolute inset-0 bg-slate-950/70 flex flex-col items-center justify-center gap-4">
              <h2 className="text-4xl font-black tracking-tight">
                {status === 'over' ? 'Game Over' : status === 'paused' ? 'Paused' : 'Snake'}
              </h2>
              {status === 'over' && <p className="text-slate-300">You scored {score} points</p>}
              <button
                onClick={status === 'paused' ? () => setStatus('playing') : reset}
                className="bg-emerald-500 hover:bg-emerald-400 text-slate-950 font-bold px-6 py-2 rounded-lg flex items-center gap-2"
              >
                <Play className="w-4 h-4" /> {status === 'paused' ? 'Resume' : status === 'over' ? 'Play again' : 'Start'}
              </button>
              <p className="text-xs text-slate-400">Arrows or WASD to steer · Space to pause · Enter to restart</p>
            </div>
          )}
        </div>

        <aside className="w-56 space-y-4">
          <div className="bg-slate-900 rounded-xl p-4">
            <p className="text-xs uppercase tracking-wide text-slate-400">Score</p>
            <p className="text-4xl font-bold text-emerald-400">{score}</p>
            <p className="text-sm text-slate-400 mt-2">Length {length}</p>
          </div>
          <div className="bg-slate-900 rounded-xl p-4 flex items-center gap-3">
            <Trophy className="w-6 h-6 text-amber-400" />
            <div>
              <p className="text-xs uppercase tracking-wide text-slate-400">Best</p>
              <p className="text-2xl font-bold">{Math.max(best, score)}</p>
            </div>
          </div>
          <div className="bg-slate-900 rounded-xl p-4 space-y-3">
            <p className="text-xs uppercase tracking-wide text-slate-400 flex items-center gap-1"><Zap className="w-3 h-3" /> Speed</p>
            <div className="flex gap-1">
              {Object.keys(SPEEDS).map((name) => (
                <button
                  key={name}
                  onClick={() => setSpeed(name)}
                  className={`flex-1 text-xs py-1.5 rounded ${speed === name ? 'bg-emerald-500 text-slate-950 font-semibold' : 'bg-slate-800 hover:bg-slate-700'}`}
                >
                  {name}
                </button>
              ))}
            </div>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={wrap} onChange={(e) => setWrap(e.target.checked)} />
              Wrap around walls
            </label>
          </div>
          <div className="flex gap-2">
            <button
              onClick={() => setStatus((s) => (s === 'playing' ? 'paused' : 'playing'))}
              disabled={status === 'over' || status === 'ready'}
              className="flex-1 bg-slate-800 hover:bg-slate-700 disabled:opacity-40 rounded-lg py-2 flex items-center justify-center gap-1 text-sm"
            >
              {status === 'playing' ? <Pause className="w-4 h-4" /> : <Play className="w-4 h-4" />}
              {status === 'playing' ? 'Pause' : 'Resume'}
            </button>
            <button onClick={reset} className="flex-1 bg-slate-800 hover:bg-slate-700 rounded-lg py-2 flex items-center justify-center gap-1 text-sm">
              <RotateCcw className="w-4 h-4" /> Restart
            </button>
          </div>
        </aside>
      </div>
    </div>
  );
}
