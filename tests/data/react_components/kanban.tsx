import { useState } from "react";

type Column = "todo" | "doing" | "done";
type Card = { id: number; title: string; column: Column };

const COLUMNS: { key: Column; label: string }[] = [
  { key: "todo", label: "To do" },
  { key: "doing", label: "In progress" },
  { key: "done", label: "Done" },
];

export default function App() {
  const [cards, setCards] = useState<Card[]>([
    { id: 1, title: "Draft the brief", column: "done" },
    { id: 2, title: "Sketch the layout", column: "doing" },
    { id: 3, title: "Pick a palette", column: "todo" },
    { id: 4, title: "Write the copy", column: "todo" },
  ]);
  const move = (id: number, dir: 1 | -1) =>
    setCards((cs) =>
      cs.map((c) => {
        if (c.id !== id) return c;
        const idx = COLUMNS.findIndex((col) => col.key === c.column) + dir;
        return idx < 0 || idx >= COLUMNS.length ? c : { ...c, column: COLUMNS[idx].key };
      }),
    );
  return (
    <div className="grid grid-cols-3 gap-4 p-6 bg-slate-50 min-h-screen">
      {COLUMNS.map((col) => (
        <section key={col.key} className="bg-slate-200 rounded p-3">
          <h2 className="font-bold mb-2">{col.label}</h2>
          {cards
            .filter((c) => c.column === col.key)
            .map((c) => (
              <div key={c.id} className="bg-white rounded shadow p-2 mb-2 flex justify-between">
                <span>{c.title}</span>
                <span className="flex gap-1">
                  <button onClick={() => move(c.id, -1)}>←</button>
                  <button onClick={() => move(c.id, 1)}>→</button>
                </span>
              </div>
            ))}
        </section>
      ))}
    </div>
  );
}
