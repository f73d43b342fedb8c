// Snake: classic grid snake game with speed levels, wrap-around walls option, pause, best score and keyboard controls
import { useCallback, useEffect, useReducer, useState } from 'react';

type Point = { x: number; y: number };
type Direction = 'up' | 'down' | 'left' | 'right';
type Status = 'ready' | 'playing' | 'paused' | 'over';

interface GameState {
  snake: Point[];
  food: Point;
  direction: Direction;
  queued: Direction[];
  status: Status;
  score: number;
  wrap: boolean;
}

type GameAction =
  | { type: 'tick' }
  | { type: 'turn'; direction: Direction }
  | { type: 'start' }
  | { type: 'togglePause' }
  | { type: 'setWrap'; wrap: boolean };

const SIZE = 20;
const CELL = 24;
const SPEEDS = { slow: 160, normal: 110, fast: 70 } as const;
type Speed = keyof typeof SPEEDS;

const VECTORS: Record<Direction, Point> = {
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
};

const OPPOSITE: Record<Direction, Direction> = { up: 'down', down: 'up', left: 'right', right: 'left' };

const KEY_MAP: Record<string, Direction> = {
  ArrowUp: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'left',
  ArrowRight: 'right',
  w: 'up',
  s: 'down',
  a: 'left',
  d: 'right',
};

function randomFood(snake: Point[]): Point {
  const taken = new Set(snake.map((p) => `${p.x},${p.y}`));
  const free: Point[] = [];
  for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) if (!taken.has(`${x},${y}`)) free.push({ x, y });
  return free[Math.floor(Math.random() * free.length)] ?? { x: 0, y: 0 };
}

function initialState(wrap: boolean): GameState {
  const snake = [
    { x: 8, y: 10 },
    { x: 7, y: 10 },
    { x: 6, y: 10 },
  ];
  return { snake, food: { x: 14, y: 10 }, direction: 'right', queued: [], status: 'ready', score: 0, wrap };
}

function reducer(state: GameState, action: GameAction): GameState {
  switch (action.type) {
    case 'start':
      return { ...initialState(state.wrap), status: 'playing', food: randomFood(initialState(state.wrap).snake) };
    case 'togglePause':
      if (state.status === 'playing') return { ...state, status: 'paused' };
      if (state.status === 'paused') return { ...state, status: 'playing' };
      return state;
    case 'setWrap':
      return state.status === 'playing' ? state : { ...state, wrap: action.wrap };
    case 'turn': {
      const last = state.queued[state.queued.length - 1] ?? state.direction;
      if (action.direction === last || action.direction === OPPOSITE[last] || state.queued.length >= 2) return state;
      return { ...state, queued: [...state.queued, action.direction] };
    }
    case 'tick': {
      if (state.status !== 'playing') return state;
      const [nextDir, ...rest] = state.queued.length ? state.queued : [state.direction];
      const v = VECTORS[nextDir];
      const head = state.snake[0];
      let nx = head.x + v.x;
      let ny = head.y + v.y;
      if (state.wrap) {
        nx = (nx + SIZE) % SIZE;
        ny = (ny + SIZE) % SIZE;
      } else if (nx < 0 || ny < 0 || nx >= SIZE || ny >= SIZE) {
        return { ...state, status: 'over' };
      }
      const eats = nx === state.food.x && ny === state.food.y;
      const body = eats ? state.snake : state.snake.slice(0, -1);
      if (body.some((p) => p.x === nx && p.y === ny)) return { ...state, status: 'over' };
      const snake = [{ x: nx, y: ny }, ...body];
      return {
        ...state,
        snake,
        direction: nextDir,
        queued: state.queued.length ? rest : [],
        food: eats ? randomFood(snake) : state.food,
        score: eats ? state.score + 10 : state.score,
      };
    }
  }
}

function readBest(): number {
  try {
    return Number(window.localStorage.getItem('snake-best') ?? 0) || 0;
  } catch {
    return 0;
  }
}

export default function App() {
  const [state, dispatch] = useReducer(reducer, false, initialState);
  const [speed, setSpeed] = useState<Speed>('normal');
  const [best, setBest] = useState(readBest);

  useEffect(() => {
    if (state.status !== 'playing') return;
    const interval = Math.max(45, SPEEDS[speed] - Math.floor(state.score / 50) * 5);
    const id = window.setInterval(() => dispatch({ type: 'tick' }), interval);
    return () => window.clearInterval(id);
  }, [state.status, speed, state.score]);

  useEffect(() => {
    if (state.status === 'over' && state.score > best) {
      setBest(state.score);
      try {
        window.localStorage.setItem('snake-best', String(state.score));
      } catch {
        // storage may be unavailable (private mode); the best score still lives in memory
      }
    }
  }, [state.status, state.score, best]);

  const onKey = useCallback(
    (e: KeyboardEvent) => {
      const dir = KEY_MAP[e.key];
      if (dir) {
        e.preventDefault();
        if (state.status === 'ready' || state.status === 'over') dispatch({ type: 'start' });
        dispatch({ type: 'turn', direction: dir });
      } else if (e.key === ' ') {
        e.preventDefault();
        if (state.status === 'ready' || state.status === 'over') dispatch({ type: 'start' });
        else dispatch({ type: 'togglePause' });
      }
    },
    [state.status],
  );

  useEffect(() => {
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onKey]);

  const headKey = `${state.snake[0].x},${state.snake[0].y}`;
  const bodyKeys = new Set(state.snake.slice(1).map((p) => `${p.x},${p.y}`));

  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-neutral-900 p-6 font-mono text-neutral-100">
      <h1 className="mb-2 text-3xl font-bold tracking-widest text-lime-400">SNAKE</h1>
      <div className="mb-4 flex gap-8 text-sm">
        <span>Score: {state.score}</span>
        <span>Best: {Math.max(best, state.score)}</span>
        <span>Length: {state.snake.length}</span>
      </div>

      <div className="relative rounded-lg border-4 border-neutral-700 bg-neutral-950" style={{ width: SIZE * CELL + 8, height: SIZE * CELL + 8 }}>
        <div className="grid" style={{ gridTemplateColumns: `repeat(${SIZE}, ${CELL}px)` }}>
          {Array.from({ length: SIZE * SIZE }, (_, i) => {
            const x = i % SIZE;
            const y = Math.floor(i / SIZE);
            const key = `${x},${y}`;
            const isHead = key === headKey;
            const isBody = bodyKeys.has(key);
            const isFood = state.food.x === x && state.food.y === y;
            return (
              <div key={key} style={{ width: CELL, height: CELL }} className="p-[2px]">
                {isHead && <div className="h-full w-full rounded-md bg-lime-300" />}
                {isBody && <div className="h-full w-full rounded-sm bg-lime-600" />}
                {isFood && <div className="h-full w-full animate-pulse rounded-full bg-rose-500" />}
              </div>
            );
          })}
        </div>

        {state.status !== 'playing' && (
          <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/70 text-center">
            {state.status === 'over' && (
              <>
                <p className="text-2xl font-bold text-rose-400">Game over</p>
                <p className="text-sm">You scored {state.score}</p>
              </>
            )}
            {state.status === 'paused' && <p className="text-2xl font-bold">Paused</p>}
            {state.status === 'ready' && <p className="text-sm text-neutral-300">Use arrow keys or WASD to steer</p>}
            <button
              onClick={() => dispatch({ type: state.status === 'paused' ? 'togglePause' : 'start' })}
              className="rounded bg-lime-500 px-6 py-2 font-bold text-neutral-900 hover:bg-lime-400"
            >
              {state.status === 'paused' ? 'Resume' : state.status === 'over' ? 'Play again' : 'Start'}
            </button>
            <p className="text-xs text-neutral-500">Space to pause</p>
          </div>
        )}
      </div>

      <div className="mt-6 flex items-center gap-6 text-sm">
        <div className="flex gap-1">
          {(Object.keys(SPEEDS) as Speed[]).map((s) => (
            <button
              key={s}
              onClick={() => setSpeed(s)}
              className={`rounded px-3 py-1 capitalize ${speed === s ? 'bg-lime-500 text-neutral-900' : 'bg-neutral-800 hover:bg-neutral-700'}`}
            >
              {s}
            </button>
          ))}
        </div>
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={state.wrap} disabled={state.status === 'playing'} onChange={(e) => dispatch({ type: 'setWrap', wrap: e.target.checked })} />
          Wrap around walls
        </label>
      </div>

      <div className="mt-6 grid grid-cols-3 gap-2 md:hidden">
        <span />
        <button onClick={() => dispatch({ type: 'turn', direction: 'up' })} className="rounded bg-neutral-800 p-3">
          ↑
        </button>
        <span />
        <button onClick={() => dispatch({ type: 'turn', direction: 'left' })} className="rounded bg-neutral-800 p-3">
          ←
        </button>
        <button onClick={() => dispatch({ type: 'turn', direction: 'down' })} className="rounded bg-neutral-800 p-3">
          ↓
        </button>
        <button onClick={() => dispatch({ type: 'turn', direction: 'right' })} className="rounded bg-neutral-800 p-3">
          →
        </button>
      </div>
    </div>
  );
}
