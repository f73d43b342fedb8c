// Helpdesk Chat: support chat widget with conversation list, canned bot replies, typing indicator, quick replies and unread badges
import { useState, useEffect, useRef, useMemo } from 'react';
import { FiSend, FiSearch, FiPaperclip, FiSmile, FiMoreVertical, FiCheck } from 'react-icons/fi';
import { FaRobot, FaUserCircle } from 'react-icons/fa';

const NOW = Date.now();

const CONVERSATIONS = [
  {
    id: 'c1', name: 'Order #4821', customer: 'Hannah Kim', status: 'open', unread: 0,
    messages: [
      { id: 1, from: 'customer', text: 'Hi, my package says delivered but I have not received it.', at: NOW - 1000 * 60 * 12 },
      { id: 2, from: 'agent', text: 'Sorry about that, Hannah! Let me check with the courier.', at: NOW - 1000 * 60 * 10 },
    ],
  },
  {
    id: 'c2', name: 'Billing question', customer: 'Omar Said', status: 'open', unread: 2,
    messages: [
      { id: 1, from: 'customer', text: 'Why was I charged twice this month?', at: NOW - 1000 * 60 * 50 },
      { id: 2, from: 'customer', text: 'Both charges are 29.00.', at: NOW - 1000 * 60 * 49 },
    ],
  },
  {
    id: 'c3', name: 'Password reset', customer: 'Lucia Ferrer', status: 'resolved', unread: 0,
    messages: [
      { id: 1, from: 'customer', text: 'The reset link expired.', at: NOW - 1000 * 60 * 60 * 5 },
      { id: 2, from: 'agent', text: 'I have sent a fresh link. It is valid for 24 hours.', at: NOW - 1000 * 60 * 60 * 5 + 60000 },
      { id: 3, from: 'customer', text: 'Worked, thank you!', at: NOW - 1000 * 60 * 60 * 4 },
    ],
  },
];

const QUICK_REPLIES = ['Thanks for your patience!', 'Could you share your order number?', 'I have escalated this to our team.', 'Is there anything else I can help with?'];

const BOT_RULES = [
  { match: /refund|charged|charge/i, reply: 'I can see the duplicate charge. A refund has been issued and should appear in 3–5 business days.' },
  { match: /thank/i, reply: 'You are very welcome! Have a great day.' },
  { match: /order|package|delivery/i, reply: 'The courier confirmed the parcel is at your local depot. It will be redelivered tomorrow.' },
];

function botReply(text) {
  const rule = BOT_RULES.find((r) => r.match.test(text));
  return rule ? rule.reply : 'Thanks for the details. Let me look into that for you.';
}

function formatTime(ts) {
  return new Date(ts).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

function useAutoScroll(dep) {
  const ref = useRef(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [dep]);
  return ref;
}

export default function App() {
  const [conversations, setConversations] = useState(CONVERSATIONS);
  const [activeId, setActiveId] = useState('c1');
  const [draft, setDraft] = useState('');
  const [typingFor, setTypingFor] = useState(null);
  const [search, setSearch] = useState('');
  const [statusFilter, setStatusFilter] = useState('open');
  const pending = useRef([]);

  const active = conversations.find((c) => c.id === activeId) || conversations[0];
  const scrollRef = useAutoScroll(`${active.id}-${active.messages.length}-${typingFor}`);

  useEffect(() => {
    const timers = pending.current;
    return () => timers.forEach((id) => clearTimeout(id));
  }, []);

  const appendMessage = (convId, message) => {
    setConversations((prev) => prev.map((c) => (c.id === convId ? { ...c, messages: [...c.messages, { ...message, id: c.messages.length + 1 }] } : c)));
  };

  const send = (text) => {
    const body = text.trim();
    if (!body) return;
    const convId = active.id;
    appendMessage(convId, { from: 'agent', text: body, at: Date.now() });
    setDraft('');
    const t1 = setTimeout(() => setTypingFor(convId), 700);
    const t2 = setTimeout(() => {
      setTypingFor(null);
      appendMessage(convId, { from: 'customer', text: botReply(body), at: Date.now(), bot: true });
    }, 2200);
    pending.current.push(t1, t2);
  };

  const onKeyDown = (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send(draft);
    }
  };

  const openConversation = (id) => {
    setActiveId(id);
    setConversations((prev) => prev.map((c) => (c.id === id ? { ...c, unread: 0 } : c)));
  };

  const toggleResolved = () => setConversations((prev) => prev.map((c) => (c.id === active.id ? { ...c, status: c.status === 'open' ? 'resolved' : 'open' } : c)));

  const list = useMemo(() => {
    const q = search.toLowerCase();
    return conversations
      .filter((c) => statusFilter === 'all' || c.status === statusFilter)
      .filter((c) => !q || c.customer.toLowerCase().includes(q) || c.name.toLowerCase().includes(q))
      .map((c) => ({ ...c, last: c.messages[c.messages.length - 1] }))
      .sort((a, b) => b.last.at - a.last.at);
  }, [conversations, search, statusFilter]);

  const totalUnread = conversations.reduce((s, c) => s + c.unread, 0);

  return (
    <div className="h-screen flex bg-slate-100 text-slate-800">
      <aside className="w-80 bg-white border-r border-slate-200 flex flex-col">
        <div className="p-4 border-b border-slate-200">
          <h1 className="text-lg font-bold flex items-center gap-2">Inbox {totalUnread > 0 && <span className="bg-rose-500 text-white text-xs rounded-full px-2">{totalUnread}</span>}</h1>
          <div className="relative mt-3">
            <FiSearch className="absolute left-3 top-2.5 text-slate-400" />
            <input value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search conversations" className="w-full pl-9 pr-3 py-2 rounded-lg bg-slate-100 text-sm outline-none" />
          </div>
          <div className="flex gap-1 mt-3 text-xs">
            {['open', 'resolved', 'all'].map((s) => (
              <button key={s} onClick={() => setStatusFilter(s)} className={`px-3 py-1 rounded-full capitalize ${statusFilter === s ? 'bg-teal-600 text-white' : 'bg-slate-100'}`}>{s}</button>
            ))}
          </div>
        </div>
        <ul className="flex-1 overflow-y-auto">
          {list.map((c) => (
            <li key={c.id}>
              <button onClick={() => openConversation(c.id)} className={`w-full text-left px-4 py-3 flex gap-3 border-b border-slate-100 ${c.id === active.id ? 'bg-teal-50' : 'hover:bg-slate-50'}`}>
                <FaUserCircle className="w-9 h-9 text-slate-300 shrink-0" />
                <div className="flex-1 min-w-0">
                  <div className="flex justify-between">
                    <p className="font-medium text-sm truncate">{c.customer}</p>
                    <span className="text-[10px] text-slate-400">{formatTime(c.last.at)}</span>
                  </div>
                  <p className="text-xs text-slate-500">{c.name}</p>
                  <p className="text-xs text-slate-400 truncate">{c.last.text}</p>
                </div>
                {c.unread > 0 && <span className="self-center bg-rose-500 text-white text-[10px] rounded-full w-5 h-5 flex items-center justify-center">{c.unread}</span>}
              </button>
            </li>
          ))}
          {list.length === 0 && <li className="p-6 text-center text-sm text-slate-400">No conversations.</li>}
        </ul>
      </aside>

      <section className="flex-1 flex flex-col">
        <header className="bg-white border-b border-slate-200 px-6 py-3 flex items-center justify-between">
          <div>
            <h2 className="font-semibold">{active.customer}</h2>
            <p className="text-xs text-slate-500">{active.name} · <span className={active.status === 'open' ? 'text-amber-600' : 'text-emerald-600'}>{active.status}</span></p>
          </div>
          <div className="flex items-center gap-2">
            <button onClick={toggleResolved} className="flex items-center gap-1 text-sm px-3 py-1.5 rounded-lg border border-slate-300 hover:bg-slate-50">
              <FiCheck /> {active.status === 'open' ? 'Mark resolved' : 'Reopen'}
            </button>
            <button className="p-2 text-slate-500 hover:bg-slate-100 rounded-lg" aria-label="More"><FiMoreVertical /></button>
          </div>
        </header>

        <div ref={scrollRef} className="flex-1 overflow-y-auto px-6 py-4 space-y-3">
          {active.messages.map((m) => (
            <div key={m.id} className={`flex ${m.from === 'agent' ? 'justify-end' : 'justify-start'}`}>
              <div className={`max-w-md rounded-2xl px-4 py-2 text-sm shadow-sm ${m.from === 'agent' ? 'bg-teal-600 text-white rounded-br-sm' : 'bg-white rounded-bl-sm'}`}>
                {m.bot && <span className="flex items-center gap-1 text-[10px] text-slate-400 mb-1"><FaRobot /> auto-reply preview</span>}
                <p>{m.text}</p>
                <p className={`text-[10px] mt-1 text-right ${m.from === 'agent' ? 'text-teal-100' : 'text-slate-400'}`}>{formatTime(m.at)}</p>
              </div>
            </div>
          ))}
          {typingFor === active.id && (
            <div className="flex justify-start">
              <div className="bg-white rounded-2xl px-4 py-3 shadow-sm flex gap-1">
                {[0, 150, 300].map((delay) => (
                  <span key={delay} className="w-2 h-2 bg-slate-400 rounded-full animate-bounce" style={{ animationDelay: `${delay}ms` }} />
                ))}
              </div>
            </div>
          )}
        </div>

        <div className="bg-white border-t border-slate-200 px-6 py-3">
          <div className="flex gap-2 mb-2 overflow-x-auto">
            {QUICK_REPLIES.map((q) => (
              <button key={q} onClick={() => setDraft(q)} className="text-xs whitespace-nowrap px-3 py-1 rounded-full border border-slate-300 hover:bg-slate-50">{q}</button>
            ))}
          </div>
          <div className="flex items-end gap-2">
            <button className="p-2 text-slate-400 hover:text-slate-600" aria-label="Attach"><FiPaperclip /></button>
            <button className="p-2 text-slate-400 hover:text-slate-600" aria-label="Emoji"><FiSmile /></button>
            <textarea
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
              rows={2}
              maxLength={1000}
              placeholder={active.status === 'resolved' ? 'This conversation is resolved. Reopen to reply.' : 'Type a reply… (Enter to send, Shift+Enter for newline)'}
              disabled={active.status === 'resolved'}
              className="flex-1 resize-none border border-slate-200 rounded-xl px-3 py-2 text-sm outline-none focus:border-teal-500 disabled:bg-slate-50"
            />
            <button onClick={() => send(draft)} disabled={!draft.trim() || active.status === 'resolved'} className="p-3 rounded-xl bg-teal-600 text-white disabled:opacity-40" aria-label="Send"><FiSend /></button>
          </div>
          <p className="text-[10px] text-slate-400 text-right mt-1">{draft.length}/1000</p>
        </div>
      </section>
    </div>
  );
}
