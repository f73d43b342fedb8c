import { useState } from "react";

const ITEMS = Array.from({ length: 47 }, (_, i) => `Invoice #${1000 + i}`);
const PER_PAGE = 8;

export default function App() {
  const [page, setPage] = useState(1);
  const pages = Math.ceil(ITEMS.length / PER_PAGE);
  const slice = ITEMS.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  return (
    <div className="p-8 max-w-md mx-auto">
      <ul className="divide-y border rounded">
        {slice.map((item) => (
          <li key={item} className="px-4 py-2">
            {item}
          </li>
        ))}
      </ul>
      <nav className="flex gap-1 mt-4 flex-wrap">
        <button disabled={page === 1} className="px-2 border rounded disabled:opacity-40" onClick={() => setPage(page - 1)}>
          Prev
        </button>
        {Array.from({ length: pages }, (_, i) => i + 1).map((n) => (
          <button
            key={n}
            className={`px-2 border rounded ${n === page ? "bg-black text-white" : ""}`}
            onClick={() => setPage(n)}
          >
            {n}
          </button>
        ))}
        <button disabled={page === pages} className="px-2 border rounded disabled:opacity-40" onClick={() => setPage(page + 1)}>
          Next
        </button>
      </nav>
    </div>
  );
}
