import { useState, useEffect } from "react";

function Modal({ open, onClose, children }: { open: boolean; onClose: () => void; children: React.ReactNode }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  if (!open) return null;
  return (
    <div className="fixed inset-0 bg-black/50 flex items-center justify-center">
      <div className="bg-white rounded-xl p-6 w-96 shadow-xl">
        {children}
        <button className="mt-4 px-3 py-1 bg-gray-800 text-white rounded" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

export default function App() {
  const [open, setOpen] = useState(true);
  return (
    <div className="p-10">
      <button className="px-4 py-2 bg-purple-600 text-white rounded" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <Modal open={open} onClose={() => setOpen(false)}>
        <h2 className="text-xl font-bold">Subscribe</h2>
        <p className="text-gray-600">Get one short letter a month about new trails.</p>
      </Modal>
    </div>
  );
}
