const FEATURES = [
  { title: "Plan", text: "Lay out every week of the season in one board." },
  { title: "Share", text: "Invite your whole crew with a single link." },
  { title: "Track", text: "See progress at a glance, on any screen." },
];

function Feature({ title, text }: { title: string; text: string }) {
  return (
    <div className="p-6 rounded-xl bg-white shadow-sm">
      <h3 className="text-lg font-semibold text-emerald-700">{title}</h3>
      <p className="text-gray-600 mt-2">{text}</p>
    </div>
  );
}

export default function App() {
  return (
    <div className="bg-emerald-50 min-h-screen">
      <header className="flex justify-between items-center px-10 py-6">
        <span className="text-2xl font-black text-emerald-800">Rowboat</span>
        <nav className="space-x-6 text-emerald-900">
          <a href="#features">Features</a>
          <a href="#pricing">Pricing</a>
        </nav>
      </header>
      <section className="text-center py-20 px-6">
        <h1 className="text-5xl font-extrabold text-emerald-900">Training plans for rowing clubs</h1>
        <p className="mt-4 text-xl text-emerald-800">Less spreadsheet, more water time.</p>
        <button className="mt-8 px-8 py-3 bg-emerald-600 text-white rounded-full text-lg">Start free</button>
      </section>
      <section id="features" className="grid grid-cols-3 gap-6 px-10 pb-20">
        {FEATURES.map((f) => (
          <Feature key={f.title} {...f} />
        ))}
      </section>
    </div>
  );
}
