import { useState } from "react";

const TABS = ["Overview", "Specs", "Reviews"] as const;
type Tab = (typeof TABS)[number];

const CONTENT: Record<Tab, string> = {
  Overview: "A lightweight trail shoe built for long days on rocky ground.",
  Specs: "Weight 280 g, drop 6 mm, sizes 36 to 47.",
  Reviews: "4.6 out of 5 from 312 hikers.",
};

export default function App() {
  const [active, setActive] = useState<Tab>("Overview");
  return (
    <div className="p-8 max-w-2xl mx-auto">
      <div className="flex border-b">
        {TABS.map((tab) => (
          <button
            key={tab}
            onClick={() => setActive(tab)}
            className={`px-4 py-2 -mb-px border-b-2 ${
              active === tab ? "border-blue-600 text-blue-600" : "border-transparent text-gray-600"
            }`}
          >
            {tab}
          </button>
        ))}
      </div>
      <section className="p-4 text-gray-800">{CONTENT[active]}</section>
    </div>
  );
}
