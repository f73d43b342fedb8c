import { useState } from "react";

const UNITS = { m: 1, km: 1000, mi: 1609.344, ft: 0.3048, in: 0.0254 } as const;
type Unit = keyof typeof UNITS;

export default function App() {
  const [value, setValue] = useState(10);
  const [from, setFrom] = useState<Unit>("km");
  const [to, setTo] = useState<Unit>("mi");
  const result = (value * UNITS[from]) / UNITS[to];
  const units = Object.keys(UNITS) as Unit[];
  return (
    <div className="max-w-md mx-auto mt-16 p-6 rounded-xl border space-y-4">
      <h1 className="text-2xl font-semibold">Length converter</h1>
      <input
        type="number"
        value={value}
        onChange={(e) => setValue(Number(e.target.value))}
        className="w-full border rounded px-3 py-2"
      />
      <div className="flex gap-3 items-center">
        <select value={from} onChange={(e) => setFrom(e.target.value as Unit)} className="border rounded p-1">
          {units.map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
        <span>to</span>
        <select value={to} onChange={(e) => setTo(e.target.value as Unit)} className="border rounded p-1">
          {units.map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
      </div>
      <p className="text-xl">
        = <strong>{result.toFixed(3)}</strong> {to}
      </p>
    </div>
  );
}
