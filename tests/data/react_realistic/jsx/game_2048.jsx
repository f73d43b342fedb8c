// 2048: slide-and-merge number puzzle with undo, score tracking and keyboard/button controls
import { useReducer, useEffect, useCallback, useMemo } from 'react';
import { RotateCcw, Undo2, ArrowUp, ArrowDown, ArrowLeft, ArrowRight } from 'lucide-react';

const SIZE = 4;

const TILE_STYLES = {
  0: 'bg-stone-200/60',
  2: 'bg-stone-100 text-stone-700',
  4: 'bg-amber-100 text-stone-700',
  8: 'bg-orange-300 text-white',
  16: 'bg-orange-400 text-white',
  32: 'bg-orange-500 text-white',
  64: 'bg-red-500 text-white',
  128: 'bg-yellow-300 text-white',
  256: 'bg-yellow-400 text-white',
  512: 'bg-yellow-500 text-white',
  1024: 'bg-amber-500 text-white',
  2048: 'bg-amber-600 text-white',
};

function emptyBoard() {
  return Array.from({ length: SIZE }, () => Array(SIZE).fill(0));
}

function addRandomTile(board) {
  const empty = [];
  board.forEach((row, r) => row.forEach((v, c) => { if (v === 0) empty.push([r, c]); }));
  if (!empty.length) return board;
  const [r, c] = empty[Math.floor(Math.random() * empty.length)];
  const next = board.map((row) => row.slice());
  next[r][c] = Math.random() < 0.9 ? 2 : 4;
  return next;
}

function slideRow(row) {
  const nums = row.filter((v) => v !== 0);
  const out = [];
  let gained = 0;
  for (let i = 0; i < nums.length; i += 1) {
    if (nums[i] === nums[i + 1]) {
      out.push(nums[i] * 2);
      gained += nums[i] * 2;
      i += 1;
    } else {
      out.push(nums[i]);
    }
  }
  while (out.length < SIZE) out.push(0);
  return { row: out, gained };
}

function rotate(board) {
  return board[0].map((_, c) => board.map((row) => row[c]).reverse());
}

function rotateTimes(board, n) {
  let b = board;
  for (let i = 0; i < n; i += 1) b = rotate(b);
  return b;
}

const TURNS = { left: 0, down: 1, right: 2, up: 3 };

function move(board, dir) {
  const turns = TURNS[dir];
  const rotated = rotateTimes(board, turns);
  let gained = 0;
  const slid = rotated.map((row) => {
    const res = slideRow(row);
    gained += res.gained;
    return res.row;
  });
  const restored = rotateTimes(slid, (4 - turns) % 4);
  const changed = restored.some((row, r) => row.some((v, c) => v !== board[r][c]));
  return { board: restored, gained, changed };
}

function canMove(board) {
  return Object.keys(TURNS).some((dir) => move(board, dir).changed);
}

function newGame() {
  return { board: addRandomTile(addRandomTile(emptyBoard())), score: 0, history: [], won: false, keepPlaying: false };
}

function reducer(state, action) {
  switch (action.type) {
    case 'move': {
      const res = move(state.board, action.dir);
      if (!res.changed) return state;
      const board = addRandomTile(res.board);
      const won = state.won || board.some((row) => row.includes(2048));
      return {
        ...state,
        board,
        score: state.score + res.gained,
        history: [...state.history.slice(-9), { board: state.board, score: state.score }],
        won,
      };
    }
    case 'undo': {
      if (!state.history.length) return state;
      const prev = state.history[state.history.length - 1];
      return { ...state, board: prev.board, score: prev.score, history: state.history.slice(0, -1) };
    }
    case 'continue':
      return { ...state, keepPlaying: true };
    case 'restart':
      return newGame();
    default:
      return state;
  }
}

const KEY_TO_DIR = {
  ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down',
  a: 'left', d: 'right', w: 'up', s: 'down',
};

export default function App() {
  const [state, dispatch] = useReducer(reducer, undefined, newGame);
  const { board, score, history, won, keepPlaying } = state;

  const gameOver = useMemo(() => !canMove(board), [board]);
  const bestTile = useMemo(() => Math.max(...board.flat()), [board]);
  const showWin = won && !keepPlaying;

  const handleMove = useCallback((dir) => {
    if (gameOver || showWin) return;
    dispatch({ type: 'move', dir });
  }, [gameOver, showWin]);

  useEffect(() => {
    const onKey = (e) => {
      const dir = KEY_TO_DIR[e.key];
      if (dir) {
        e.preventDefault();
        handleMove(dir);
      } else if (e.key === 'u' || (e.key === 'z' && (e.ctrlKey || e.metaKey))) {
        dispatch({ type: 'undo' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handleMove]);

  return (
    <div className="min-h-screen bg-amber-50 flex items-center justify-center font-sans">
      <div className="w-[460px]">
        <div className="flex items-end justify-between mb-4">
          <div>
            <h1 className="text-6xl font-extrabold text-stone-700">2048</h1>
            <p className="text-stone-500 text-sm mt-1">Join the tiles, get to <strong>2048!</strong></p>
          </div>
          <div className="flex gap-2">
            <div className="bg-stone-600 text-white rounded-lg px-4 py-2 text-center min-w-[80px]">
              <p className="text-[10px] uppercase tracking-widest text-stone-300">Score</p>
              <p className="text-xl font-bold">{score}</p>
            </div>
            <div className="bg-stone-600 text-white rounded-lg px-4 py-2 text-center min-w-[80px]">
              <p className="text-[10px] uppercase tracking-widest text-stone-300">Best tile</p>
              <p className="text-xl font-bold">{bestTile}</p>
            </div>
          </div>
        </div>

        <div className="flex justify-end gap-2 mb-3">
          <button
            onClick={() => dispatch({ type: 'undo' })}
            disabled={!history.length}
            className="bg-stone-500 hover:bg-stone-600 disabled:opacity-40 text-white text-sm font-semibold rounded-lg px-3 py-1.5 flex items-center gap-1"
          >
            <Undo2 className="w-4 h-4" /> Undo ({history.length})
          </button>
          <button
            onClick={() => dispatch({ type: 'restart' })}
            className="bg-orange-500 hover:bg-orange-600 text-white text-sm font-semibold rounded-lg px-3 py-1.5 flex items-center gap-1"
          >
            <RotateCcw className="w-4 h-4" /> New game
          </button>
        </div>

        <div className="relative bg-stone-400 rounded-xl p-3">
          <div className="grid grid-cols-4 gap-3">
            {board.map((row, r) =>
              row.map((value, c) => (
                <div
                  key={`${r}-${c}`}
                  className={`h-24 rounded-lg flex items-center justify-center font-extrabold transition-colors duration-100 ${
                    TILE_STYLES[value] || 'bg-stone-800 text-white'
                  } ${value >= 1024 ? 'text-3xl' : value >= 128 ? 'text-4xl' : 'text-5xl'}`}
                >
                  {value || ''}
                </div>
              ))
            )}
          </div>
          {(gameOver || showWin) && (
            <div className="absolute inset-0 rounded-xl bg-amber-50/80 flex flex-col items-center justify-center gap-4">
              <p className="text-4xl font-extrabold text-stone-700">{showWin ? 'You win!' : 'Game over'}</p>
              <p className="text-stone-600">Final score: {score}</p>
              <div className="flex gap-2">
                {showWin && (
                  <button onClick={() => dispatch({ type: 'continue' })} className="bg-stone-600 text-white font-semibold rounded-lg px-4 py-2">
                    Keep going
                  </button>
                )}
                {!showWin && history.length > 0 && (
                  <button onClick={() => dispatch({ type: 'undo' })} className="bg-stone-600 text-white font-semibold rounded-lg px-4 py-2">
                    Undo last move
                  </button>
                )}
                <button onClick={() => dispatch({ type: 'restart' })} className="bg-orange-500 text-white font-semibold rounded-lg px-4 py-2">
                  Try again
                </button>
              </div>
            </div>
          )}
        </div>

        <div className="mt-6 flex flex-col items-center gap-2">
          <button onClick={() => handleMove('up')} className="w-12 h-12 rounded-lg bg-stone-300 hover:bg-stone-400 flex items-center justify-center" aria-label="Up">
            <ArrowUp className="w-5 h-5 text-stone-700" />
          </button>
          <div className="flex gap-2">
            <button onClick={() => handleMove('left')} className="w-12 h-12 rounded-lg bg-stone-300 hover:bg-stone-400 flex items-center justify-center" aria-label="Left">
              <ArrowLeft className="w-5 h-5 text-stone-700" />
            </button>
            <button onClick={() => handleMove('down')} className="w-12 h-12 rounded-lg bg-stone-300 hover:bg-stone-400 flex items-center justify-center" aria-label="Down">
              <ArrowDown className="w-5 h-5 text-stone-700" />
            </button>
            <button onClick={() => handleMove('right')} className="w-12 h-12 rounded-lg bg-stone-300 hover:bg-stone-400 flex items-center justify-center" aria-label="Right">
              <ArrowRight className="w-5 h-5 text-stone-700" />
            </button>
          </div>
          <p className="text-xs text-stone-500 mt-2">Use arrow keys or WASD. Press U to undo.</p>
        </div>
      </div>
    </div>
  );
}
