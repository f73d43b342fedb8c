const SALES: { month: string; value: number }[] = [
  { month: "Jan", value: 32 },
  { month: "Feb", value: 45 },
  { month: "Mar", value: 28 },
  { month: "Apr", value: 60 },
  { month: "May", value: 52 },
  { month: "Jun", value: 71 },
];

export default function App() {
  const max = Math.max(...SALES.map((s) => s.value));
  return (
    <div className="p-8">
      <h1 className="text-2xl font-bold mb-6">Monthly sales (k€)</h1>
      <div className="flex items-end gap-4 h-64 border-l border-b border-gray-400 px-4">
        {SALES.map((s) => (
          <div key={s.month} className="flex flex-col items-center flex-1">
            <span className="text-xs mb-1">{s.value}</span>
            <div className="w-full bg-teal-500 rounded-t" style={{ height: `${(s.value / max) * 220}px` }} />
            <span className="text-sm mt-1">{s.month}</span>
          </div>
        ))}
      </div>
    </div>
  );
}
