type Kpi = { label: string; value: string; delta: number };

const KPIS: Kpi[] = [
  { label: "Revenue", value: "€48.2k", delta: 12.5 },
  { label: "Orders", value: "1,284", delta: -3.1 },
  { label: "Avg. basket", value: "€37.6", delta: 4.2 },
  { label: "Returns", value: "2.1%", delta: -0.4 },
];

const ACTIVITY = ["Order #5521 shipped", "New review on Linen Shirt", "Stock low: Canvas Tote", "Refund issued #5498"];

function KpiCard({ kpi }: { kpi: Kpi }) {
  const up = kpi.delta >= 0;
  return (
    <div className="bg-white rounded-xl p-5 shadow">
      <p className="text-sm text-gray-500">{kpi.label}</p>
      <p className="text-3xl font-bold mt-1">{kpi.value}</p>
      <p className={up ? "text-green-600" : "text-red-600"}>
        {up ? "▲" : "▼"} {Math.abs(kpi.delta)}%
      </p>
    </div>
  );
}

export default function App() {
  return (
    <div className="min-h-screen bg-gray-100 flex">
      <aside className="w-56 bg-gray-900 text-gray-200 p-6 space-y-3">
        <p className="text-xl font-bold text-white">Shopdesk</p>
        <p>Overview</p>
        <p>Orders</p>
        <p>Customers</p>
      </aside>
      <main className="flex-1 p-8">
        <div className="grid grid-cols-4 gap-4">
          {KPIS.map((k) => (
            <KpiCard key={k.label} kpi={k} />
          ))}
        </div>
        <section className="mt-8 bg-white rounded-xl p-5 shadow">
          <h2 className="font-semibold mb-3">Recent activity</h2>
          <ul className="space-y-2 text-gray-700">
            {ACTIVITY.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ul>
        </section>
      </main>
    </div>
  );
}
