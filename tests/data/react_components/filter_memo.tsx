import { useMemo, useState } from "react";

const BOOKS = [
  { title: "The Quiet River", author: "M. Osei", year: 2011, genre: "novel" },
  { title: "Atlas of Clouds", author: "R. Lind", year: 2018, genre: "science" },
  { title: "Salt and Stone", author: "A. Perez", year: 2004, genre: "history" },
  { title: "Small Engines", author: "T. Ito", year: 2020, genre: "science" },
  { title: "Winter Letters", author: "K. Novak", year: 1999, genre: "novel" },
];

export default function App() {
  const [query, setQuery] = useState("");
  const [genre, setGenre] = useState("all");
  const visible = useMemo(
    () =>
      BOOKS.filter(
        (b) => (genre === "all" || b.genre === genre) && b.title.toLowerCase().includes(query.toLowerCase()),
      ),
    [query, genre],
  );
  return (
    <div className="p-8 max-w-3xl mx-auto">
      <div className="flex gap-3 mb-6">
        <input
          className="border rounded px-3 py-2 flex-1"
          placeholder="Search titles"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <select className="border rounded px-2" value={genre} onChange={(e) => setGenre(e.target.value)}>
          <option value="all">All genres</option>
          <option value="novel">Novels</option>
          <option value="science">Science</option>
          <option value="history">History</option>
        </select>
      </div>
      <div className="grid grid-cols-2 gap-4">
        {visible.map((b) => (
          <article key={b.title} className="p-4 border rounded-lg">
            <h2 className="font-semibold">{b.title}</h2>
            <p className="text-sm text-gray-600">
              {b.author}, {b.year}
            </p>
          </article>
        ))}
      </div>
      {visible.length === 0 && <p className="text-gray-500">No books match.</p>}
    </div>
  );
}
