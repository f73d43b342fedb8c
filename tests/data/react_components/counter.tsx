import { useState } from "react";

export default function App() {
  const [count, setCount] = useState<number>(0);
  const step = 5;
  return (
    <main className="min-h-screen flex flex-col items-center justify-center bg-slate-100 gap-4">
      <h1 className="text-3xl font-bold text-slate-800">Counter</h1>
      <p className="text-6xl font-mono text-indigo-600">{count}</p>
      <div className="flex gap-2">
        <button className="px-4 py-2 rounded bg-indigo-600 text-white" onClick={() => setCount((c) => c - step)}>
          -{step}
        </button>
        <button className="px-4 py-2 rounded bg-indigo-600 text-white" onClick={() => setCount((c) => c + step)}>
          +{step}
        </button>
        <button className="px-4 py-2 rounded border" onClick={() => setCount(0)}>
          Reset
        </button>
      </div>
    </main>
  );
}
