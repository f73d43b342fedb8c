import { useState, type ReactNode } from "react";

interface ListProps<T> {
  items: T[];
  render: (item: T) => ReactNode;
  keyOf: (item: T) => string;
}

function List<T>({ items, render, keyOf }: ListProps<T>) {
  return (
    <ul className="divide-y rounded border bg-white">
      {items.map((item) => (
        <li key={keyOf(item)} className="px-4 py-2">
          {render(item)}
        </li>
      ))}
    </ul>
  );
}

type Station = { code: string; name: string; minutes: number };

export default function App() {
  const [stations] = useState<Station[]>([
    { code: "NTH", name: "North Gate", minutes: 3 },
    { code: "MKT", name: "Market Square", minutes: 7 },
    { code: "RIV", name: "Riverside", minutes: 12 },
  ]);
  return (
    <div className="p-8 max-w-md mx-auto bg-slate-100 min-h-screen">
      <h1 className="text-2xl font-bold mb-4">Next departures</h1>
      <List
        items={stations}
        keyOf={(s) => s.code}
        render={(s) => (
          <span className="flex justify-between">
            <span>{s.name}</span>
            <span className="font-mono">{s.minutes} min</span>
          </span>
        )}
      />
    </div>
  );
}
