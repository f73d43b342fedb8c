import { useState } from "react";

const POINTS = [12, 18, 9, 24, 30, 22, 35, 28, 40];
const W = 600;
const H = 240;

export default function App() {
  const [hover, setHover] = useState<number | null>(null);
  const max = Math.max(...POINTS);
  const xy = POINTS.map((p, i) => [(i / (POINTS.length - 1)) * W, H - (p / max) * H] as const);
  const path = xy.map(([x, y], i) => `${i === 0 ? "M" : "L"}${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  return (
    <div className="p-8">
      <h1 className="text-xl font-semibold mb-4">Visitors per day</h1>
      <svg width={W} height={H} className="bg-gray-50 overflow-visible">
        <path d={path} fill="none" stroke="#2563eb" strokeWidth={3} />
        {xy.map(([x, y], i) => (
          <circle
            key={i}
            cx={x}
            cy={y}
            r={hover === i ? 7 : 4}
            fill="#1d4ed8"
            onMouseEnter={() => setHover(i)}
            onMouseLeave={() => setHover(null)}
          />
        ))}
      </svg>
      <p className="mt-2 text-gray-600">{hover === null ? "Hover a point" : `Day ${hover + 1}: ${POINTS[hover]}`}</p>
    </div>
  );
}
