import { useEffect, useState } from "react";

type Note = { id: number; text: string; pinned: boolean };
const KEY = "notes-demo";

function load(): Note[] {
  try {
    const raw = window.localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Note[]) : [{ id: 1, text: "Buy stamps", pinned: true }];
  } catch {
    return [];
  }
}

export default function App() {
  const [notes, setNotes] = useState<Note[]>(load);
  const [text, setText] = useState("");
  useEffect(() => {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(notes));
    } catch {
      // storage can be unavailable (private mode); the notes still live in memory
    }
  }, [notes]);
  const ordered = [...notes].sort((a, b) => Number(b.pinned) - Number(a.pinned));
  return (
    <div className="max-w-lg mx-auto p-8 bg-yellow-50 min-h-screen">
      <textarea
        className="w-full border rounded p-2"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Write a note"
      />
      <button
        className="mt-2 px-3 py-1 bg-yellow-500 rounded"
        onClick={() => {
          if (text.trim()) setNotes([...notes, { id: Date.now(), text, pinned: false }]);
          setText("");
        }}
      >
        Save
      </button>
      <div className="mt-6 space-y-2">
        {ordered.map((n) => (
          <div key={n.id} className="bg-white p-3 rounded shadow flex justify-between">
            <span>{n.text}</span>
            <button onClick={() => setNotes(notes.map((x) => (x.id === n.id ? { ...x, pinned: !x.pinned } : x)))}>
              {n.pinned ? "📌" : "pin"}
            </button>
          </div>
        ))}
      </div>
    </div>
  );
}
