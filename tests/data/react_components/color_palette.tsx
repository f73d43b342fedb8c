import { useState } from "react";

function hsl(h: number, s: number, l: number): string {
  return `hsl(${h} ${s}% ${l}%)`;
}

export default function App() {
  const [hue, setHue] = useState(200);
  const [copied, setCopied] = useState<string | null>(null);
  const shades = [90, 75, 60, 45, 30, 15];
  return (
    <div className="p-10 space-y-6">
      <h1 className="text-2xl font-bold">Palette builder</h1>
      <input type="range" min={0} max={360} value={hue} onChange={(e) => setHue(Number(e.target.value))} className="w-96" />
      <div className="flex">
        {shades.map((l) => (
          <button
            key={l}
            className="w-28 h-28 flex items-end justify-center pb-2 text-xs"
            style={{ backgroundColor: hsl(hue, 70, l), color: l > 50 ? "#111" : "#fff" }}
            onClick={() => setCopied(hsl(hue, 70, l))}
          >
            {l}%
          </button>
        ))}
      </div>
      <p className="text-gray-600">{copied ? `Picked ${copied}` : "Click a swatch to pick it."}</p>
    </div>
  );
}
