import { useEffect, useRef, useState } from "react";

function format(ms: number): string {
  const s = Math.floor(ms / 1000);
  const cs = Math.floor((ms % 1000) / 10);
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.${String(cs).padStart(2, "0")}`;
}

export default function App() {
  const [elapsed, setElapsed] = useState(0);
  const [running, setRunning] = useState(false);
  const startRef = useRef<number>(0);

  useEffect(() => {
    if (!running) return;
    startRef.current = Date.now() - elapsed;
    const id = window.setInterval(() => setElapsed(Date.now() - startRef.current), 30);
    return () => window.clearInterval(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [running]);

  return (
    <div className="h-screen flex flex-col items-center justify-center bg-gray-900 text-white">
      <div className="text-7xl font-mono tabular-nums">{format(elapsed)}</div>
      <div className="mt-6 flex gap-3">
        <button className="px-5 py-2 bg-green-600 rounded" onClick={() => setRunning(!running)}>
          {running ? "Pause" : "Start"}
        </button>
        <button
          className="px-5 py-2 bg-gray-600 rounded"
          onClick={() => {
            setRunning(false);
            setElapsed(0);
          }}
        >
          Reset
        </button>
      </div>
    </div>
  );
}
