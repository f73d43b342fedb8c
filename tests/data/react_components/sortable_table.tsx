import { useMemo, useState } from "react";

type Row = { city: string; country: string; population: number };
type Key = keyof Row;

const ROWS: Row[] = [
  { city: "Lyon", country: "France", population: 522000 },
  { city: "Porto", country: "Portugal", population: 232000 },
  { city: "Graz", country: "Austria", population: 291000 },
  { city: "Tartu", country: "Estonia", population: 91000 },
];

export default function App() {
  const [sortKey, setSortKey] = useState<Key>("city");
  const [asc, setAsc] = useState(true);
  const sorted = useMemo(() => {
    const copy = [...ROWS];
    copy.sort((a, b) => (a[sortKey] < b[sortKey] ? -1 : a[sortKey] > b[sortKey] ? 1 : 0) * (asc ? 1 : -1));
    return copy;
  }, [sortKey, asc]);

  const header = (key: Key) => (
    <th
      className="px-4 py-2 cursor-pointer text-left"
      onClick={() => (key === sortKey ? setAsc(!asc) : setSortKey(key))}
    >
      {key} {sortKey === key ? (asc ? "▲" : "▼") : ""}
    </th>
  );

  return (
    <table className="m-8 border-collapse shadow">
      <thead className="bg-gray-200">
        <tr>
          {header("city")}
          {header("country")}
          {header("population")}
        </tr>
      </thead>
      <tbody>
        {sorted.map((r) => (
          <tr key={r.city} className="odd:bg-white even:bg-gray-50">
            <td className="px-4 py-2">{r.city}</td>
            <td className="px-4 py-2">{r.country}</td>
            <td className="px-4 py-2 text-right">{r.population.toLocaleString("en-US")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
