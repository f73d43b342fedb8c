import { useRef, useState } from "react";

export default function App() {
  const inputRef = useRef<HTMLInputElement>(null);
  const [names, setNames] = useState<string[]>(["Ada", "Grace"]);
  const add = () => {
    const value = inputRef.current?.value.trim();
    if (value) setNames((n) => [...n, value]);
    if (inputRef.current) inputRef.current.value = "";
    inputRef.current?.focus();
  };
  return (
    <div className="p-10 space-y-4">
      <h1 className="text-2xl">Guest list</h1>
      <div className="flex gap-2">
        <input ref={inputRef} className="border px-2 py-1 rounded" placeholder="Guest name" />
        <button className="bg-rose-500 text-white px-3 rounded" onClick={add}>
          Invite
        </button>
      </div>
      <ol className="list-decimal pl-6">
        {names.map((n, i) => (
          <li key={`${n}-${i}`}>{n}</li>
        ))}
      </ol>
    </div>
  );
}
