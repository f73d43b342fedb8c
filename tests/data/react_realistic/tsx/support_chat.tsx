// Support Chat: messaging UI with conversation list, animated message bubbles, typing indicator and a canned-reply assistant
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent, KeyboardEvent } from 'react';
import { motion, AnimatePresence } from 'framer-motion';
import { Send, Bot, Search, Paperclip, Smile, CheckCheck, Circle } from 'lucide-react';

type Author = 'me' | 'them';

interface Message {
  id: string;
  author: Author;
  text: string;
  at: number;
  read: boolean;
}

interface Conversation {
  id: string;
  name: string;
  role: string;
  online: boolean;
  color: string;
  messages: Message[];
}

const now = Date.now();
const minutes = (m: number) => now - m * 60_000;

const INITIAL: Conversation[] = [
  {
    id: 'helpdesk',
    name: 'Helpdesk Assistant',
    role: 'Automated support',
    online: true,
    color: 'bg-indigo-500',
    messages: [
      { id: 'h1', author: 'them', text: 'Hi there! I can help with billing, shipping and account questions.', at: minutes(42), read: true },
      { id: 'h2', author: 'me', text: 'My package has not arrived yet.', at: minutes(40), read: true },
      { id: 'h3', author: 'them', text: 'Sorry about that. Could you share your order number?', at: minutes(39), read: true },
    ],
  },
  {
    id: 'sam',
    name: 'Sam Ortega',
    role: 'Account manager',
    online: false,
    color: 'bg-emerald-500',
    messages: [{ id: 's1', author: 'them', text: 'The renewal quote is attached, let me know if anything looks off.', at: minutes(300), read: false }],
  },
  {
    id: 'lena',
    name: 'Lena Fischer',
    role: 'Technical support',
    online: true,
    color: 'bg-amber-500',
    messages: [
      { id: 'l1', author: 'me', text: 'SSO login loops back to the start page.', at: minutes(1500), read: true },
      { id: 'l2', author: 'them', text: 'We pushed a fix this morning, can you try again?', at: minutes(1440), read: false },
    ],
  },
];

const REPLIES: { match: RegExp; reply: string }[] = [
  { match: /order|package|ship|deliver/i, reply: 'Thanks! I see the parcel left our warehouse yesterday. Tracking should update within 24 hours.' },
  { match: /refund|money back|charge/i, reply: 'Refunds are processed within 5 business days after we receive the item.' },
  { match: /password|login|sign in/i, reply: 'You can reset your password from the sign-in page using "Forgot password".' },
  { match: /hello|hi|hey/i, reply: 'Hello! What can I help you with today?' },
  { match: /thank/i, reply: 'You are welcome! Anything else I can do?' },
];

const QUICK_REPLIES = ['Where is my order?', 'I need a refund', 'Reset my password', 'Thanks!'];

function pickReply(text: string): string {
  return REPLIES.find((r) => r.match.test(text))?.reply ?? 'Let me connect you with a human colleague. They will reply here shortly.';
}

function timeLabel(ts: number): string {
  const diff = (Date.now() - ts) / 60_000;
  if (diff < 1) return 'now';
  if (diff < 60) return `${Math.floor(diff)}m`;
  if (diff < 1440) return `${Math.floor(diff / 60)}h`;
  return new Date(ts).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });
}

function useAutoScroll<T extends HTMLElement>(dep: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [dep]);
  return ref;
}

export default function App() {
  const [conversations, setConversations] = useState<Conversation[]>(INITIAL);
  const [activeId, setActiveId] = useState('helpdesk');
  const [draft, setDraft] = useState('');
  const [filter, setFilter] = useState('');
  const [typingIn, setTypingIn] = useState<string | null>(null);
  const timers = useRef<number[]>([]);

  const active = conversations.find((c) => c.id === activeId) ?? conversations[0];
  const scrollRef = useAutoScroll<HTMLDivElement>(`${active.messages.length}-${typingIn}`);

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((t) => window.clearTimeout(t));
  }, []);

  useEffect(() => {
    setConversations((list) =>
      list.map((c) => (c.id === activeId && c.messages.some((m) => !m.read) ? { ...c, messages: c.messages.map((m) => ({ ...m, read: true })) } : c)),
    );
  }, [activeId]);

  const visible = useMemo(() => {
    const q = filter.toLowerCase();
    return conversations
      .filter((c) => c.name.toLowerCase().includes(q) || c.messages.some((m) => m.text.toLowerCase().includes(q)))
      .sort((a, b) => (b.messages[b.messages.length - 1]?.at ?? 0) - (a.messages[a.messages.length - 1]?.at ?? 0));
  }, [conversations, filter]);

  const appendMessage = useCallback((conversationId: string, message: Message) => {
    setConversations((list) => list.map((c) => (c.id === conversationId ? { ...c, messages: [...c.messages, message] } : c)));
  }, []);

  const send = useCallback(
    (text: string) => {
      const trimmed = text.trim();
      if (!trimmed) return;
      const conversationId = activeId;
      appendMessage(conversationId, { id: `m${Date.now()}`, author: 'me', text: trimmed, at: Date.now(), read: true });
      setDraft('');
      const startTyping = window.setTimeout(() => setTypingIn(conversationId), 400);
      const reply = window.setTimeout(() => {
        setTypingIn(null);
        appendMessage(conversationId, { id: `r${Date.now()}`, author: 'them', text: pickReply(trimmed), at: Date.now(), read: conversationId === activeId });
      }, 1600 + Math.min(trimmed.length * 20, 1200));
      timers.current.push(startTyping, reply);
    },
    [activeId, appendMessage],
  );

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    send(draft);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send(draft);
    }
  };

  return (
    <div className="flex h-screen bg-slate-100 p-6">
      <div className="mx-auto flex w-full max-w-6xl overflow-hidden rounded-2xl bg-white shadow-xl">
        <aside className="flex w-80 flex-col border-r border-slate-200">
          <div className="border-b border-slate-200 p-4">
            <h1 className="mb-3 text-lg font-bold">Messages</h1>
            <label className="flex items-center gap-2 rounded-lg bg-slate-100 px-3 py-2">
              <Search size={16} className="text-slate-400" />
              <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Search conversations" className="w-full bg-transparent text-sm outline-none" />
            </label>
          </div>
          <ul className="flex-1 overflow-y-auto">
            {visible.map((c) => {
              const last = c.messages[c.messages.length - 1];
              const unread = c.messages.filter((m) => !m.read).length;
              return (
                <li key={c.id}>
                  <button onClick={() => setActiveId(c.id)} className={`flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-slate-50 ${c.id === activeId ? 'bg-indigo-50' : ''}`}>
                    <span className={`relative flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-sm font-semibold text-white ${c.color}`}>
                      {c.id === 'helpdesk' ? <Bot size={18} /> : c.name.charAt(0)}
                      {c.online && <span className="absolute bottom-0 right-0 h-3 w-3 rounded-full border-2 border-white bg-green-500" />}
                    </span>
                    <span className="min-w-0 flex-1">
                      <span className="flex items-center justify-between">
                        <span className="truncate text-sm font-semibold">{c.name}</span>
                        <span className="text-xs text-slate-400">{last ? timeLabel(last.at) : ''}</span>
                      </span>
                      <span className="flex items-center justify-between gap-2">
                        <span className={`truncate text-xs ${unread ? 'font-medium text-slate-800' : 'text-slate-500'}`}>
                          {typingIn === c.id ? 'typing…' : last?.text ?? 'No messages yet'}
                        </span>
                        {unread > 0 && <span className="rounded-full bg-indigo-600 px-1.5 text-[10px] font-bold text-white">{unread}</span>}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </aside>

        <section className="flex flex-1 flex-col">
          <header className="flex items-center gap-3 border-b border-slate-200 px-6 py-4">
            <span className={`flex h-10 w-10 items-center justify-center rounded-full text-white ${active.color}`}>{active.id === 'helpdesk' ? <Bot size={18} /> : active.name.charAt(0)}</span>
            <div>
              <div className="font-semibold">{active.name}</div>
              <div className="flex items-center gap-1 text-xs text-slate-500">
                <Circle size={8} className={active.online ? 'fill-green-500 text-green-500' : 'fill-slate-300 text-slate-300'} />
                {active.online ? 'Online' : 'Away'} · {active.role}
              </div>
            </div>
          </header>

          <div ref={scrollRef} className="flex-1 space-y-3 overflow-y-auto bg-slate-50 px-6 py-4">
            <AnimatePresence initial={false}>
              {active.messages.map((m) => (
                <motion.div
                  key={m.id}
                  initial={{ opacity: 0, y: 12, scale: 0.97 }}
                  animate={{ opacity: 1, y: 0, scale: 1 }}
                  transition={{ duration: 0.2 }}
                  className={`flex ${m.author === 'me' ? 'justify-end' : 'justify-start'}`}
                >
                  <div className={`max-w-md rounded-2xl px-4 py-2 text-sm shadow-sm ${m.author === 'me' ? 'rounded-br-sm bg-indigo-600 text-white' : 'rounded-bl-sm bg-white text-slate-800'}`}>
                    <p>{m.text}</p>
                    <div className={`mt-1 flex items-center justify-end gap-1 text-[10px] ${m.author === 'me' ? 'text-indigo-200' : 'text-slate-400'}`}>
                      {new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
                      {m.author === 'me' && <CheckCheck size={12} />}
                    </div>
                  </div>
                </motion.div>
              ))}
              {typingIn === active.id && (
                <motion.div key="typing" initial={{ opacity: 0 }} animate={{ opacity: 1 }} exit={{ opacity: 0 }} className="flex">
                  <div className="flex gap-1 rounded-2xl rounded-bl-sm bg-white px-4 py-3 shadow-sm">
                    {[0, 1, 2].map((i) => (
                      <motion.span
                        key={i}
                        className="h-2 w-2 rounded-full bg-slate-400"
                        animate={{ y: [0, -4, 0] }}
                        transition={{ repeat: Infinity, duration: 0.8, delay: i * 0.15 }}
                      />
                    ))}
                  </div>
                </motion.div>
              )}
            </AnimatePresence>
          </div>

          <div className="flex gap-2 border-t border-slate-200 px-6 pt-3">
            {QUICK_REPLIES.map((q) => (
              <button key={q} onClick={() => send(q)} className="rounded-full border border-slate-200 px-3 py-1 text-xs text-slate-600 hover:bg-slate-100">
                {q}
              </button>
            ))}
          </div>
          <form onSubmit={onSubmit} className="flex items-end gap-2 px-6 py-4">
            <button type="button" className="rounded-full p-2 text-slate-400 hover:bg-slate-100" aria-label="Attach file">
              <Paperclip size={18} />
            </button>
            <textarea
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
              rows={1}
              maxLength={500}
              placeholder={`Message ${active.name}`}
              className="max-h-32 flex-1 resize-none rounded-xl border border-slate-200 px-4 py-2.5 text-sm outline-none focus:border-indigo-400"
            />
            <button type="button" className="rounded-full p-2 text-slate-400 hover:bg-slate-100" aria-label="Emoji">
              <Smile size={18} />
            </button>
            <button type="submit" disabled={!draft.trim()} className="rounded-full bg-indigo-600 p-2.5 text-white hover:bg-indigo-700 disabled:opacity-40" aria-label="Send">
              <Send size={18} />
            </button>
          </form>
          <div className="px-6 pb-2 text-right text-[10px] text-slate-400">{draft.length}/500 · Enter to send, Shift+Enter for a new line</div>
        </section>
      </div>
    </div>
  );
}
