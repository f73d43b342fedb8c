import { useState, type FormEvent } from "react";

interface Todo {
  id: number;
  text: string;
  done: boolean;
}

export default function App() {
  const [todos, setTodos] = useState<Todo[]>([
    { id: 1, text: "Water the plants", done: false },
    { id: 2, text: "Read a chapter", done: true },
  ]);
  const [draft, setDraft] = useState("");

  const add = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.trim()) return;
    setTodos((list) => [...list, { id: Date.now(), text: draft.trim(), done: false }]);
    setDraft("");
  };

  const toggle = (id: number) =>
    setTodos((list) => list.map((t) => (t.id === id ? { ...t, done: !t.done } : t)));

  return (
    <div className="max-w-md mx-auto mt-10 p-6 bg-white shadow rounded-lg">
      <h1 className="text-2xl font-semibold mb-4">Todo list</h1>
      <form onSubmit={add} className="flex gap-2 mb-4">
        <input
          className="flex-1 border rounded px-3 py-2"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          placeholder="What needs doing?"
        />
        <button type="submit" className="bg-emerald-600 text-white px-4 rounded">
          Add
        </button>
      </form>
      <ul className="space-y-2">
        {todos.map((t) => (
          <li key={t.id} className="flex items-center gap-2">
            <input type="checkbox" checked={t.done} onChange={() => toggle(t.id)} />
            <span className={t.done ? "line-through text-gray-400" : ""}>{t.text}</span>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-gray-500">{todos.filter((t) => !t.done).length} left</p>
    </div>
  );
}
