import { useState } from "react";

const STEPS = ["Account", "Address", "Payment", "Confirm"];

export default function App() {
  const [step, setStep] = useState(0);
  return (
    <div className="max-w-2xl mx-auto p-10">
      <ol className="flex justify-between mb-8">
        {STEPS.map((s, i) => (
          <li key={s} className="flex flex-col items-center flex-1">
            <span
              className={`w-8 h-8 rounded-full flex items-center justify-center ${
                i <= step ? "bg-blue-600 text-white" : "bg-gray-200"
              }`}
            >
              {i + 1}
            </span>
            <span className="text-sm mt-1">{s}</span>
          </li>
        ))}
      </ol>
      <div className="h-2 bg-gray-200 rounded">
        <div className="h-2 bg-blue-600 rounded" style={{ width: `${(step / (STEPS.length - 1)) * 100}%` }} />
      </div>
      <div className="mt-8 p-6 border rounded text-center">Step {step + 1}: {STEPS[step]} details go here.</div>
      <div className="flex justify-between mt-6">
        <button className="px-4 py-2 border rounded" disabled={step === 0} onClick={() => setStep(step - 1)}>
          Back
        </button>
        <button
          className="px-4 py-2 bg-blue-600 text-white rounded"
          disabled={step === STEPS.length - 1}
          onClick={() => setStep(step + 1)}
        >
          Next
        </button>
      </div>
    </div>
  );
}
