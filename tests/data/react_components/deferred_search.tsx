import { useDeferredValue, useMemo, useState, useTransition } from "react";

const WORDS = Array.from({ length: 300 }, (_, i) => `item-${(i * 7919) % 1000}`);

export default function App() {
  const [text, setText] = useState("");
  const [onlyEven, setOnlyEven] = useState(false);
  const [isPending, startTransition] = useTransition();
  const deferred = useDeferredValue(text);
  const matches = useMemo(
    () => WORDS.filter((w) => w.includes(deferred) && (!onlyEven || Number(w.slice(5)) % 2 === 0)).slice(0, 40),
    [deferred, onlyEven],
  );
  return (
    <div className="p-8">
      <div className="flex gap-4 items-center">
        <input className="border rounded px-3 py-2" value={text} onChange={(e) => setText(e.target.value)} placeholder="Filter" />
        <label className="flex gap-1 items-center">
          <input type="checkbox" checked={onlyEven} onChange={() => startTransition(() => setOnlyEven(!onlyEven))} />
          even only
        </label>
        {isPending && <span className="text-gray-400">updating…</span>}
      </div>
      <div className="grid grid-cols-8 gap-2 mt-6">
        {matches.map((m) => (
          <span key={m} className="text-xs bg-gray-100 rounded px-1 py-0.5">
            {m}
          </span>
        ))}
      </div>
    </div>
  );
}
