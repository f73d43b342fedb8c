import { useState } from "react";

enum Billing {
  Monthly = "monthly",
  Yearly = "yearly",
}

const PLANS = [
  { name: "Starter", monthly: 9, perks: ["1 project", "Email support"] },
  { name: "Team", monthly: 29, perks: ["10 projects", "Chat support", "Shared drafts"] },
  { name: "Studio", monthly: 79, perks: ["Unlimited projects", "Phone support", "Audit log"] },
];

export default function App() {
  const [billing, setBilling] = useState<Billing>(Billing.Monthly);
  const price = (monthly: number) => (billing === Billing.Monthly ? monthly : Math.round(monthly * 12 * 0.8));
  return (
    <div className="py-12 px-6 bg-white">
      <div className="flex justify-center gap-2 mb-10">
        {[Billing.Monthly, Billing.Yearly].map((b) => (
          <button
            key={b}
            onClick={() => setBilling(b)}
            className={`px-4 py-1 rounded-full ${billing === b ? "bg-indigo-600 text-white" : "bg-gray-100"}`}
          >
            {b}
          </button>
        ))}
      </div>
      <div className="grid grid-cols-3 gap-6 max-w-5xl mx-auto">
        {PLANS.map((p) => (
          <div key={p.name} className="border rounded-2xl p-6 flex flex-col">
            <h2 className="text-xl font-bold">{p.name}</h2>
            <p className="text-4xl font-extrabold my-4">
              ${price(p.monthly)}
              <span className="text-base font-normal text-gray-500">/{billing === Billing.Monthly ? "mo" : "yr"}</span>
            </p>
            <ul className="space-y-1 flex-1">
              {p.perks.map((perk) => (
                <li key={perk}>✓ {perk}</li>
              ))}
            </ul>
            <button className="mt-6 py-2 rounded bg-indigo-600 text-white">Choose</button>
          </div>
        ))}
      </div>
    </div>
  );
}
