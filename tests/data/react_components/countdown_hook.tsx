import { useEffect, useState } from "react";

function useCountdown(seconds: number): [number, () => void] {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    if (left <= 0) return;
    const id = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(id);
  }, [left]);
  return [left, () => setLeft(seconds)];
}

export default function App() {
  const [left, restart] = useCountdown(90);
  const pct = (left / 90) * 100;
  return (
    <div className="flex flex-col items-center justify-center h-screen gap-6">
      <h1 className="text-3xl font-bold">Tea timer</h1>
      <div className="w-80 h-4 bg-gray-200 rounded-full overflow-hidden">
        <div className="h-full bg-lime-500" style={{ width: `${pct}%` }} />
      </div>
      <p className="text-5xl font-mono">{left}s</p>
      <button className="px-4 py-2 rounded bg-lime-600 text-white" onClick={restart}>
        Restart
      </button>
    </div>
  );
}
