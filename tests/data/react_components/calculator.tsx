import { useState } from "react";

const KEYS = ["7", "8", "9", "/", "4", "5", "6", "*", "1", "2", "3", "-", "0", ".", "=", "+"];

function evaluate(expr: string): string {
  const tokens = expr.match(/\d+(\.\d+)?|[+\-*/]/g) ?? [];
  let total = Number(tokens[0] ?? 0);
  for (let i = 1; i < tokens.length; i += 2) {
    const n = Number(tokens[i + 1] ?? 0);
    if (tokens[i] === "+") total += n;
    else if (tokens[i] === "-") total -= n;
    else if (tokens[i] === "*") total *= n;
    else total = n === 0 ? NaN : total / n;
  }
  return Number.isFinite(total) ? String(total) : "Error";
}

export default function App() {
  const [display, setDisplay] = useState("");
  const press = (k: string) => setDisplay((d) => (k === "=" ? evaluate(d) : d + k));
  return (
    <div className="w-72 mx-auto mt-16 bg-gray-800 p-4 rounded-2xl shadow-2xl">
      <div className="bg-gray-100 text-right text-3xl font-mono p-3 rounded mb-3 h-14 overflow-hidden">{display || "0"}</div>
      <div className="grid grid-cols-4 gap-2">
        {KEYS.map((k) => (
          <button key={k} className="bg-gray-600 text-white text-xl py-3 rounded hover:bg-gray-500" onClick={() => press(k)}>
            {k}
          </button>
        ))}
      </div>
      <button className="mt-2 w-full bg-red-500 text-white py-2 rounded" onClick={() => setDisplay("")}>
        Clear
      </button>
    </div>
  );
}
