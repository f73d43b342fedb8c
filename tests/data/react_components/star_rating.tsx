import { useState } from "react";

interface StarsProps {
  value: number;
  onChange: (v: number) => void;
  max?: number;
}

function Stars({ value, onChange, max = 5 }: StarsProps) {
  const [hover, setHover] = useState(0);
  return (
    <div className="flex gap-1 text-4xl" onMouseLeave={() => setHover(0)}>
      {Array.from({ length: max }, (_, i) => i + 1).map((n) => (
        <span
          key={n}
          className={`cursor-pointer ${(hover || value) >= n ? "text-yellow-400" : "text-gray-300"}`}
          onMouseEnter={() => setHover(n)}
          onClick={() => onChange(n)}
        >
          ★
        </span>
      ))}
    </div>
  );
}

export default function App() {
  const [rating, setRating] = useState(3);
  return (
    <div className="p-12">
      <h1 className="text-xl mb-3">Rate your stay</h1>
      <Stars value={rating} onChange={setRating} />
      <p className="mt-3 text-gray-600">You chose {rating} of 5.</p>
    </div>
  );
}
