import { useState } from "react";

type Cell = "X" | "O" | null;
const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function winner(board: Cell[]): Cell {
  for (const [a, b, c] of LINES) {
    if (board[a] && board[a] === board[b] && board[a] === board[c]) return board[a];
  }
  return null;
}

export default function App() {
  const [board, setBoard] = useState<Cell[]>(Array(9).fill(null));
  const [xNext, setXNext] = useState(true);
  const win = winner(board);
  const play = (i: number) => {
    if (board[i] || win) return;
    const next = board.slice();
    next[i] = xNext ? "X" : "O";
    setBoard(next);
    setXNext(!xNext);
  };
  return (
    <div className="flex flex-col items-center mt-12 gap-4">
      <p className="text-lg">{win ? `Winner: ${win}` : `Next: ${xNext ? "X" : "O"}`}</p>
      <div className="grid grid-cols-3 gap-1">
        {board.map((cell, i) => (
          <button key={i} className="w-20 h-20 text-3xl font-bold bg-amber-100 hover:bg-amber-200" onClick={() => play(i)}>
            {cell}
          </button>
        ))}
      </div>
      <button className="underline" onClick={() => setBoard(Array(9).fill(null))}>
        New game
      </button>
    </div>
  );
}
