"""Made by ``python -m engine.mcr.make_tables`` (do not edit): the chow and pung combination tables of
``engine.mcr.fast``, loaded at import."""

# fmt: off
CHOW_VALUES = ((('four_pure_shifted_chows',), False, False),
 (('mixed_double_chow', 'mixed_double_chow'), False, False),
 (('mixed_double_chow', 'mixed_double_chow'), False, True),
 (('mixed_double_chow',), False, False),
 (('mixed_double_chow',), False, True),
 (('mixed_double_chow',), True, False),
 (('mixed_shifted_chows', 'mixed_double_chow'), False, False),
 (('mixed_shifted_chows', 'mixed_double_chow'), False, True),
 (('mixed_shifted_chows', 'pure_double_chow'), False, False),
 (('mixed_shifted_chows', 'pure_double_chow'), False, True),
 (('mixed_shifted_chows', 'short_straight'), False, False),
 (('mixed_shifted_chows', 'two_terminal_chows'), False, False),
 (('mixed_shifted_chows',), False, False),
 (('mixed_shifted_chows',), False, True),
 (('mixed_straight', 'mixed_double_chow'), False, False),
 (('mixed_straight', 'pure_double_chow'), False, False),
 (('mixed_straight',), False, False),
 (('mixed_triple_chow', 'pure_double_chow'), False, False),
 (('mixed_triple_chow', 'pure_double_chow'), False, True),
 (('mixed_triple_chow', 'pure_double_chow'), True, False),
 (('mixed_triple_chow', 'short_straight'), False, False),
 (('mixed_triple_chow', 'two_terminal_chows'), True, False),
 (('mixed_triple_chow',), False, False),
 (('mixed_triple_chow',), False, True),
 (('mixed_triple_chow',), True, False),
 (('pure_double_chow', 'pure_double_chow'), False, False),
 (('pure_double_chow', 'pure_double_chow'), False, True),
 (('pure_double_chow', 'pure_double_chow'), True, False),
 (('pure_double_chow',), False, False),
 (('pure_double_chow',), False, True),
 (('pure_double_chow',), True, False),
 (('pure_shifted_chows', 'mixed_double_chow'), False, False),
 (('pure_shifted_chows', 'mixed_double_chow'), False, True),
 (('pure_shifted_chows', 'pure_double_chow'), False, False),
 (('pure_shifted_chows', 'pure_double_chow'), False, True),
 (('pure_shifted_chows', 'short_straight'), False, False),
 (('pure_shifted_chows', 'two_terminal_chows'), False, False),
 (('pure_shifted_chows',), False, False),
 (('pure_shifted_chows',), False, True),
 (('pure_straight', 'mixed_double_chow'), False, False),
 (('pure_straight', 'pure_double_chow'), False, False),
 (('pure_straight',), False, False),
 (('pure_terminal_chows',), True, False),
 (('pure_triple_chow', 'mixed_double_chow'), False, False),
 (('pure_triple_chow', 'mixed_double_chow'), False, True),
 (('pure_triple_chow', 'mixed_double_chow'), True, False),
 (('pure_triple_chow', 'short_straight'), False, False),
 (('pure_triple_chow', 'two_terminal_chows'), True, False),
 (('pure_triple_chow',), False, False),
 (('pure_triple_chow',), False, True),
 (('pure_triple_chow',), True, False),
 (('quadruple_chow',), False, False),
 (('quadruple_chow',), False, True),
 (('quadruple_chow',), True, False),
 (('short_straight', 'short_straight'), False, False),
 (('short_straight',), False, False),
 (('three_suited_terminal_chows',), True, False),
 (('two_terminal_chows',), False, False),
 (('two_terminal_chows',), True, False),
 ((), False, False),
 ((), False, True),
 ((), True, False),
 None)
CHOW_DATA = (b'eNrtXYlC20gSjZFjCPESz0yGjIgYYBhvwuaYFodbXmX7X4gx//8JW1e3WrZsbGyIIeUkRFjq6uqqV9cjga2jFy9e/vGn+82df7kqk8yZJHH7Zb'
    b'LvktZ+K3POZJlLnfvFOfgkNeaTuaDHyu5OUnY6WbbjMtNOHCx7h8vKTpJkSauDi/ExeDjp7MP9Tms/afWPjo5OQKI7MYcgFxeDcPerQ/H4Bt5K'
    b'c2M+G3PJ+5RZUoJIuJOZb2XW7e60y6SbZCXs3s8OUUSWswJtVMK6t86CPPiw6/gK3qHXV9ImAW3Kbieha1DUtSw9hzvAeb/B+2U3KbN20nlHQj'
    b'tb71yyZUlWH0/w4uQQFXUn+SHrnKWsx4GTw8iLRaby9AGcK//81eTNJ4PP4WS4O7yLJ8vwZHzjX93uqzZoACcq8fQ2+1aW29u2fwiPvYKNDiMT'
    b'tF3SFmckIB+fh+OA6C4cHDZtwbvkHtjBWCsGsmwti2YbiN3ofXrPv75G5knQPN/K7nbblu1D+Hxr+13itvpH+OvEklVPHZ7j0J24/BsfrQTVu+'
    b'2yxAXb71BVvNiClW20MW5lydYD9+9+//j4+PTFXyDjEHf/KzY4HuDAH58sL6bnk6VeZa/AQZBCjsg/m695kytKsngSuYLe9zdKvMmK4mnAFSU+'
    b'ZemxzNUf7O52MU6SEkyWWXKgdSW5sE8LAcRWlu6Q4hh/9Bv+OH/NETnhzZK8ybIT6x3rPetjj9GeyGEAObiYsFASGBgNSQuEo158VDQD+W/XeX'
    b'jAgQEgA0IDQsQGjPBdxyaRP6dVDFDQkd9RUdoywfSC2lMYWlKTQhHebFlxf59xdHpiGUmDUz4WZgg+mwhFC+BfXTYCvCjfkA0p68BVq6TTsQ9I'
    b'nOVdTgewEQX16emLE+9CzE+ZRxqbJPXeTStfCcR+cRXsZBEtjPOAVzyNtoBsiq9Pxnw15uJ/L/905wsCsfem7GVlD4G4Z+2eK3sMxJ4A8c0UEE'
    b'srouBRMQIDsSQg9gjCAsTMZQ2LuxWWe102PuUBK7AGcT1GmCAboF0GkTuOVX/5sgHdCf/1x3/d726I9hq61/hhuDeET+EP/MKrcMl36VG352CV'
    b'f/0zhflehPmSMe9VF7xw1LgWbYVCM/GkoAwPSTECQnsUaknGIVxaD0AENocTxxMgLmhdSmj9nfng8tHFQUO2w2NQlbIUZ1YCjSKNQ22vqmRnH8'
    b'7o90eR4M6cFYFnVeR9rMceh0kvCpOEw6SUOAyBSEURQ5EPMGRNff3jsHxBcUmRdCaRSQhvjE3EhWUsoaXC/hTwEqgYqXTNu6JvSwnaIWPMOolb'
    b'0uRMIhdD9+8Qu5mT6P3zT/e+Fr1vouhlgKcxMH2w/uYmXgEMaeW9NDJx7ehpTYn0/JwC/Ms/FOFX7suVcS2AFa1PsZWCLGNckrWwVcrw8NQf4Q'
    b'FS3gXzCacK7Ijw8QwjKucGhxMsLMQq1uIuhpqYDC3soGthp1HPIi1Ligc/qM7n+GzUoPj+JNrHZtBkYH8BaoJLEeQt7hxYA18Gqh7hK2+OPQF0'
    b'A9IMcC/gW4EMsXCItR+rfnAtSvMlP1R80deX+Fpt95U9FPaqrocjGDoCJZ/MOshNlJMcG15OROhsSdlkc1Jo+3aJK6MURj4wBWg4vBSVeun7Ss'
    b'fMKMY4tsBHUtxCbatKm1Q2XkQx4tNjyxevULuq0hVVLoE+GSwlgEfAlto0WZrqhSmuS1KWzu+2Y1ZSRcG0z/mejEtp3Pm0zfm68Gl6wsacHhDB'
    b'koF9AvZQgoTCudaRQVsht1ap1WdWcYYLSdQ7KSTNKmdOpMyPwWfB/JwVKRuGZFjlwigVxpnQJ8JKluQ8R0GZ0AEkx1UpLspwcYKr5Tef3t7XfV'
    b'xLYVFk+8Q1kbc+Ri1J1JNI0qrlrN++uP0WrjGus7PfacEc1znK3A5ZmuKHKlIC1dBl2Jo6goirx9c+FhV4bBdPiIUzObIZ1mPwbV+0a4jIfSpG'
    b'KJzg73YF/1TJE8QgW486F+cBHOTs9XpvQE4Pri30Sr9LDQVxWJBIXbqAHS31UR8sycZmiuCM1yVFL8uXGgK/z6lOpGSHVM6bhnOkkS5pbd37L2'
    b'Td8yuwJ9Q7aB0/7XRcJ+lkMDAfkThKQN0OXEIfkKDJXReMbo8yMjvYvQoetAzYhcfbLjqh73hCgAilDdkekymNDJol5JYE99klyFFPk1jwDTVL'
    b'0C1JiBNSpuVI2LrXhOVE3EWKwPIhJqxdCTXH7VcyRK950Cc+hQj6YAfowwBvnQ6OOgQqOiUhpeQr8jdfk/e4n5A6bMAn0I7vSOEke6XBDml0lr'
    b'S2byrrsSjT68KZnU6HyA2oUdgQQX9yxCPm5wz64A75BxyVdAAonXdb7shltB+VN9B3t7v9Ck4AvTIaGGGbvNveAhkw/sLobo9xMH2F2hzmE3kO'
    b'/QDXZEgMCE9glORji07mOZDczOfzqbghX77mZOn9Qg0yBRYN/eD7Myu8Atwl97P/hwwAnz4cOwgJHuR3EkfxjkBiyCUyYSQyWpYSXowStrdJMp'
    b'zOiAxyMCHAKpxpcWtHY63EdinXCCNaD2kQs+GJePoEPM3kEXFHbPiDYNCDyChp7QCpKJJ6Qdha5Tn6/BJDj+q8QQ/jkIMUEzNMPK9QB079sSNa'
    b'6MizDp8znJBeuWTb4TTA0EfYd7fb2317iFzHlnPHjvkKaFvyqjuAyaqzk5RMaxFkoGowaBA1lAQQNyUmAkhGR4TcHc475k0vg+y2B3J66PgeeR'
    b'4np+Fwz/UYSsOsx2Aawi2G0wf402NADRFRPLzBA4ipN5nP4uhzQZ+n0/hTVJC6IKaMuBnao0TqBwbfB1GqcUK5EeOWOMYvoqdMJO+A2j0G0JAR'
    b'5KuhgMcZDIkyY15OaDmHPFi7tO32Yck4IiD1GElDhpIT2qLPKOJeGMPvJKeeKA3s3a/cFImPDiI7pzWbpHH/7Md+FklddI7lM48RRQGRyRiPiB'
    b'LEEKdHlJ4wep7QE8RBk8wjpZieaLYj/HsbDACICsTXZ0YUjelgHsfMEBN/NKiTm3Dsp6yFBQ5nMHAG5i7EOSfKyRa0S/ikHPKaOxbEDKegLiLK'
    b'MljPGK1cswivBNihRyy3DYRZHPWSjKksz0syLUntESkuzFBJIzw2YpgJq+7yrQdkTFi+9e043Rr4bnnXhWa9hkyEJo/3iCjPZHois+0kyzJMGa'
    b'dDBip1fpCOZAcZbSCduJwsnjHH6SnOwHA64kVw2E4SCjkSSZB1FSfAbSuNQv2+H4bQcn95vBL5GXOfv/p23nsxrVk8FcvFnb8ofFBJl/nJ0AQ1'
    b'B7uCECZBhQP1FKir7jNhRNSnZz4D8Rl4zx3fsoXmmLptYQmZnax4RmEnCP9E7jnOwZ6F+1Rhl/kqigThjJyQpUNhQBm7BI8zigsKjKFEBoaG87'
    b'HBFYaio45dTjAVCSscbCI47nWrIYJbbiPZkOkpz05VhKzwsTR8iLqeIyU+JYuCgOnZt5KNB56+tzF/L8M5pWsrCTuCmbMxV+uxKzyt0LQRSysk'
    b'LdQaXy4oOLxAnoj6frC1YbLNcB4S6ULYBiKqoms9W+uYPkTpGCfc9ZVZoJh5QrJhAu5HIzDNR1GUpBFvG9O2v1RzcfCtNO6hUZzgcOUcabRTmJ'
    b'VpWHbns0NGyjTStczWCln7phYyTNMSSes5WqZoawyty+orhJplYjbwskLL1lnZiJT1nOxE6CW+0yFm1dOjLjCbnon8wOHI3RAHJJN4ISQ9m/ZF'
    b'CFqibT2nW1G6E4xujdBluiAOmV4VMp7Pjelcz+bKISb4BJ/uEWYVl1tRuTGT64lcEjSHb+CvfZCpKxI34nADhbsXh+SCdEQcMjF3G6jbGnPrid'
    b'vELU9W1HcKhG3E18Z0bWBr3YpMhntfRWrM0VYUbZ2hnSBo/7MWloPaf3NJH4/z41t8faePx+HNC/6cPhb8ptyjt0bxW5OLqotwJz8e0MIbFji1'
    b'T174Nyy/VfDjtX2O81Glwpgn1+MrU70WERvLGJk7xQ+axDc8Z+Pn2NyL2sUrFuk4W+1rEy+lB0iRsbhlGROMTHSroLsjEdZsd39YFGNWtH/z5p'
    b'Fpx2OzsBLzvNT0fN1bxYMcIdp3bB7pKBdmpdU1Q+TmkVHs7Ve3ZjHPxot54Mo0bSdrYAO0iJVgXr//B6b+GNzHR8dG9p0fat5BxyEPP1jMLaBw'
    b'FJ72jvBsVHwRcDcufMyAXeD8UShZ88PssFC0LyCmHvaXZlOsG6tunpuZiweROqpJLX6eFO4hNA2q4i64jRYG5H2wG5LVTNUjYSNyNffiGxN9F6'
    b'ZhEa64YCVJ4QWrWIDrcei+N6GeLX3mqhB+v120EDaffakc1SxiQ4vj0sasqur3W7NRRl2uBCwicONr7rJOi0rV9+Ln8l7xwPLrRf3aPCOwxMYo'
    b'jMLm4WAzMo+63bhpO21Fn1Yr6qO3OaaLRSJ+tFReGNw3jayef6oavKh1JrYaULDcBMb82WTmKlFNyrD0IJ+WTr70FFBljePbKmU84YFgZTuGye'
    b'Lm9h6TxQx73rM0zpD23OaNlX0VBpeb21vzBHx2385mIdnPd7JZFR7ViHRzWyhO1tIM32Orn2KcWhGhUft/MzKK1c3A6r1nuJV3nhjnroxGzcIG'
    b'HxkNIA2g+s4Dsyma2AlNzo1SNUrV/ARUjU/mc/J8sXApGC1fNQYrVZp11akHKHjXZh3uaVSHtaj+Bao2HnP8MDLzZZLIi1Fl01XYu6gU3Rol8h'
    b'7UWUHy7YoU4Qynrd5kzhCsxOHjYcNUGDFPFiNrmEkW2kY5y8dHZpA8vl2RDf0JIVr8kF2VOf2RcVJJHt+OjEbM04uYddBPKyuhVO6mhHHs1bHR'
    b'iNaIXktEr4VbXrdSUzRzoXlnE/JOo8M0BWkKev4p6MI8CS0nE2VeXdOtc58xfeKkWxf+05A9qzR6ycusf2vqS3cNObcQqTYsG1/zZe4TcC0Zx3'
    b't4cd+HDV/ha07iPFvG6/mRIl9YBP81v0YI0+OPdX49teFlXYe8yH0RmSoql9Mq54Wc/eZ2OONrjLOrU5MN8sgAN6N8aZk1o8ypiDIVzNhcFo7M'
    b'wykgGWSZL5mauc7ML+cf5nreYfGk0gI0tgWXdxhLLIXfpWM45yu085uOa7PYLgVtNMrvvdGUj+Z0QHcDZQIlMOk8jmbTCFqkkfN96aIHYpljs9'
    b'GH8pXu/k2tWSG4rpc05s1y1h8YCs5iKjhr/fblsk4d+DJop2J2+t8ILNDpX5v7alCQEqN8DUo0Qm3eXHJlVlCbA96OzQ9RvTlUFhrC7pMEBg3h'
    b'Zc2TO/qMVLHs7Oq/hLaaBWVX89OasViPmGpaKR4vkV+tx/vjYj1yyIrCkdxFoVyuC7redfgdPYZ3bjsbyE0Ez7VZt5YFKTrK16zonLibR1xdmQ'
    b'c4IJUk/JYdG3LIeSlmIVZvPaWqyUxUwvAbcTwXU83NyctSqOsscLN0wu+jocZftizenwwP/6DhIZ1ahI/q2sdzbbh6uK+fjAIjO/EfJc6nqNiZ'
    b'LGutpgdqdm10Z2NJjWnVzSDyiqXJx2fIuNynwDQRUToqrfrfGB50htV8/1Tz/Q1+vKzn+1l5fZHkvHyiXD3JrD1oHsHu42D3NX2p9tJo5dbKrZ'
    b'VbK7dWbq3cWrmfTuXmqqiefPqeHJh1S2z6gTza42mPpz2e9nja42mPp52B9njqyefU4xWKFEXKEv9X7LH+u4/R4UOHDx0+dPjQ4UOHD21EdPhQ'
    b'T+rwoUjR4eMRv5ehAlOBuVnALB53u+YfjK0zuc7kOpPrTK4zuc7k2gbpTK6e1JlckaKjj87kCkydyX/MjxPQsNCw0LCYcv9GfHPa8JNxlDhT4k'
    b'yJMyXOlDhT4kybMiXO1JNKnClSdBBT4kyBqQyBEmcaFhoWSpxN9t4apBqkGqQbG6QDs0naTP3ETKPku5LvSr4r+a7ku5Lv2jMq+a6eVPJdkaJz'
    b'opLvCkwlMJR817DQsFBeT8l3DVINUiXf10u+F5pDNIdoDtEccv8ccmE2W72i/sb/Acyg/WA=')
CHOW_IN_ORDER_VALUES = ((('mixed_double_chow', 'mixed_double_chow', 'short_straight'), False, False),
 (('mixed_double_chow', 'mixed_double_chow', 'two_terminal_chows'), True, False),
 (('mixed_double_chow', 'pure_double_chow'), False, False),
 (('mixed_double_chow', 'pure_double_chow'), False, True),
 (('mixed_double_chow', 'pure_double_chow'), True, False),
 (('mixed_double_chow', 'pure_double_chow', 'short_straight'), False, False),
 (('mixed_double_chow', 'pure_double_chow', 'two_terminal_chows'), True, False),
 (('mixed_double_chow', 'short_straight'), False, False),
 (('mixed_double_chow', 'short_straight', 'mixed_double_chow'), False, False),
 (('mixed_double_chow', 'short_straight', 'pure_double_chow'), False, False),
 (('mixed_double_chow', 'two_terminal_chows'), False, False),
 (('mixed_double_chow', 'two_terminal_chows'), True, False),
 (('mixed_double_chow', 'two_terminal_chows', 'mixed_double_chow'), True, False),
 (('mixed_double_chow', 'two_terminal_chows', 'pure_double_chow'), True, False),
 (('pure_double_chow', 'mixed_double_chow'), False, False),
 (('pure_double_chow', 'mixed_double_chow'), False, True),
 (('pure_double_chow', 'mixed_double_chow'), True, False),
 (('pure_double_chow', 'mixed_double_chow', 'pure_double_chow'), False, False),
 (('pure_double_chow', 'mixed_double_chow', 'pure_double_chow'), False, True),
 (('pure_double_chow', 'mixed_double_chow', 'pure_double_chow'), True, False),
 (('pure_double_chow', 'mixed_double_chow', 'short_straight'), False, False),
 (('pure_double_chow', 'mixed_double_chow', 'two_terminal_chows'), True, False),
 (('pure_double_chow', 'short_straight'), False, False),
 (('pure_double_chow', 'short_straight', 'mixed_double_chow'), False, False),
 (('pure_double_chow', 'short_straight', 'pure_double_chow'), False, False),
 (('pure_double_chow', 'two_terminal_chows'), False, False),
 (('pure_double_chow', 'two_terminal_chows'), True, False),
 (('pure_double_chow', 'two_terminal_chows', 'mixed_double_chow'), True, False),
 (('pure_double_chow', 'two_terminal_chows', 'pure_double_chow'), True, False),
 (('short_straight', 'mixed_double_chow'), False, False),
 (('short_straight', 'mixed_double_chow', 'mixed_double_chow'), False, False),
 (('short_straight', 'mixed_double_chow', 'pure_double_chow'), False, False),
 (('short_straight', 'mixed_double_chow', 'short_straight'), False, False),
 (('short_straight', 'mixed_double_chow', 'two_terminal_chows'), False, False),
 (('short_straight', 'pure_double_chow'), False, False),
 (('short_straight', 'pure_double_chow', 'mixed_double_chow'), False, False),
 (('short_straight', 'two_terminal_chows'), False, False),
 (('two_terminal_chows', 'mixed_double_chow'), False, False),
 (('two_terminal_chows', 'mixed_double_chow'), True, False),
 (('two_terminal_chows', 'mixed_double_chow', 'mixed_double_chow'), True, False),
 (('two_terminal_chows', 'mixed_double_chow', 'pure_double_chow'), True, False),
 (('two_terminal_chows', 'mixed_double_chow', 'short_straight'), False, False),
 (('two_terminal_chows', 'pure_double_chow'), False, False),
 (('two_terminal_chows', 'pure_double_chow'), True, False),
 (('two_terminal_chows', 'pure_double_chow', 'mixed_double_chow'), True, False),
 (('two_terminal_chows', 'short_straight'), False, False))
CHOW_IN_ORDER_DATA = (b'eNrtXIF647YNvjq3pktb57au7rLVi6tbtjZbv0+2Lpb8OCfLeM+92QgQJEGKpCTb8d066xJFIikSBMCfIAjefxZv3iwWxaIo/lwUiwU+qmd6o1'
    b'dM4SRKK/7y8PzwTOkPvy4Wz0XBf/714/MzllE39YM16gr1x666QjRQmLr8qrAirufdfDafLX9YLh/nt4vlrND3f/z16Wnx9PRzgblhpsl7+91s'
    b'9jgrZsXPhXuaq2u2WM6L2VLU+vCEf59nhcuNZi6XT3Sb0fUHVaWqVuXIR3XN5/fz+WJ5X9zQbambko14uUGmbAQf8Befb2azPxY3xc0jtSIe9a'
    b'WqmS/v79/P7xdLXTn240E3/vxIuf1Myrv90+1C/Xtzqx7U39vFL6sFJXkpv1vgj/kzXyJpeLulC0m4X96r2vGm027wepzdIK2z50f39PuiUD8F'
    b'/6HOqWtRzJEgrON+/v7+nolcPKm/z8UMs3VuJBOJeaIb1ra45S6ZPv2qfhd+N3+ljuHl9+x+qf+5Lixtv27FhTnFzezxRnVqpigo3CNehdfHG7'
    b'5wWKA8ke8k2vn8/Xwuuqizba7M9LvIijGn7mJHuMPUPequzwTXXe601+ulFacsQ2o11//CdBLboxoE2PXCPpqr8PpvUheEC2r0UkeWP2DP8Pfd'
    b'v6mrOptzbabO+/r7u4e7h58e7v6OP19/cXf3093d914ip335gNeX/Ge+fEJGqdsdXZp3/TTk18pw7BfNM5Vmkn4xqiQ5KFmItM7ppuvs8zGfr1'
    b'j19mdi43fqkZ++fcbrW/7jeCuZK3l7NOL+KCA3h6kekA4gpY+Qs2HU03CHffHALYdcSZQyyMSgROO1hz8IO8OognASQw6BF1S9hxoeGggQGB7h'
    b'emjrQR0dv3LIGv1xI3QWjkYxBHPjKzOSzEjhgUNPqaEhR4PVctZ+8d5TcaHXet7TsPNOPszn9h7OkeLtb3P1s1x+pfAFbwYrNXK68RZLe/fPd+'
    b'rnSV3f0O329q26eiRYVX2i5rgZU5d8MrWpekgW8h5c2FKYi20HPZ1rDJFP8nLWQmx+NrzRzJHcwV/JGx8fRY7tfNC85oAZc7YVXTtzxarA7Mgr'
    b'bRupv2r0MWfskzIj+B6zTPoTveWPZdBYbix9EmyTVLFFCFt5khs3N+ZuLAafAybHSdOXtW+FUZ+IEKXq9uEr20HJodDIIcMnsApcq3d3tpKvOJ'
    b'XJ4PZFw6KppQNLrpU+veN6CEj45q5YmsgJcx2rNLNCtvmsNCUC48qy1ihJzA6U7F3O3ZMbXgGLPVMqbRRYepivun3Hu7AlV3uItchSj0VvohyM'
    b'Mlcmv4mzN2Sxz16XN8vYro7VMW3rs4zRWEMPPwlA8wBxmL1EBLXvFNIyMmxAVNpj75Fc7rH4OGDUExdNVhasfOhyrA41L6aNYko0amsfvrHzo5'
    b'tkvdkZCeE2zR/VKlfvNFRPkF6toi4U1xf2Fr/8/C/6eQl+D+OLBBY7MYcTtry/DdOvRvT/vRH9OdnQZ7FbpU36Kjbgee2pwFY6n30Sszgi1sTZ'
    b'Zu/kPByZY886p42Ync6M9kn89hE5RNtNuVk1q3pVrVcVrNZNuVrjW7Nq97vVdkWp6m1df1wdVmvAzH1pC63bnXp4OVSYW+lkLFqrsg1923blqi'
    b'5X0DRYfluKb3WBbk85mwPsfUoAv0OCGk3ORuWpXCgVAdQONKplRT5SiESqhjAHP96Xqw0c1IulE3Q1mOM+3x5c+XXdlOVH0b7gQx3lQpQHIziQ'
    b'7P/Hfu+P7/tOd7ce6nV9SGmA+6qmPh+U7FRHAT5ys8QjTFXPG4C9ZXel2E1forgVcSh0UOVrRVeExZMb2gw3s5a90BVuAXZUYU2kYskWsPfD5V'
    b'5aotwfD4Zcf0RwNUrOJDv1g5JnEi31WhL4u8dyB2yS0yyTog2dtZkNa/OhrDlT1YsKGk0u6VPgOnAoh0BA/GMSNPe4sZYUcmzJtWyo/aiKhfji'
    b'1IIHmGNBiDJGrJim2cIfo/bvcdx8KJkEOybg8GEjB/Ngc6c1hip4YCV3eqclkcigoYA84prUYAGHM3WJxEDdS+pUmsYb+lajy8GXpAdLWkYewU'
    b'pCHyaUZaxxpO5sy46Gl04RsWYAiU1GXckjwOiyRkAs0djmiLsG/zaqyMGBvlO4msABqP6y3HgNntLcptzmGnOglIFaLMnDWr9o1CvNawX4nib8'
    b'iHpiqstYus9nv6j8tWYU1kkIA2YQJzPsNKSyxMsO3xqXoR/bTj0z16kbNH4ao1vpHDHDgXwDbIfFtnaPLxAMAuJjw9MlFxLCDDiTK2q6fByPd5'
    b'jfY0vXRXuhbAjqxobZvqYJq2a00kqiFdrrKOk1YxnsUWlUfUB6XZKJcRDGA+nRoRQ6pjR7I5qsow2etTnTQ5yfABpTYF+6cr0M1QQQDGEKPb4A'
    b'VeSzqIkxyE60WKeWDkuNGoEyGJNBXcfUZJKYYH7ZmbejlKntVD7zHqsjxisSif9empsmQGsYWxn4hrpnJLZ2jy+g0jelG/Ga/xtHViRDjw0rWd'
    b'07+7rT7Ro1WPuvdUcNlibPPKpplynpUMoh75ncqvaaaukDbf6NKm61SCjUadLpUDp9vm4h3k1luOscM/KAGEtGszWV3BRtUMqOub6Gu+EnlxLB'
    b'xFHrtptUu0OtntKmGfZkC9UkljIY+NEsVaEWVUPt8+BvcO7SwxBtF832MpLYAUFwrYdjY5/V3EQkedxmO29vpJeyRDV5lthGQIjgYr+2SXW5RO'
    b'67fd3pfriOe69dx6w6TpMVFOxLAwU0L7NEAjDoZTk40CLXVNh32GmssiqyDt5xrDRYk8m1zwQKOwO8NKy54+tIIkvcYjSzx74Tf1gmtoB8V4sm'
    b'as5mi+caNJV6ebUlrUoK1fGilZ/sRn3gtF1q/k6osFTnE4W+1UKP8L6qk8xoW2aGDybbsmZNdF4FaTRHPDnW2A0hJD78IgjmN+pb11MaTDRX9o'
    b'z/tTCZNAFyFCdJ97BiUn0DtZ28ENATO7kLvCVGJkvXCqSLe/+VLV+RaV6MHaM7Zp00rtZcnuaJqmhv+2XfYaenYJdrXwjTNDqzVzLgB+mD0/lx'
    b'4uPKBqvKVNQ1doHAndwHCcawoHWJLeIlbHXvjtYAhNe9RVJnrxu2Z7JKYz6x8bsPE1gPhH0cJtQdQ4/2EHIZPwFBCCl0BeQLYvK+Kd10FFKZyy'
    b'sttvq8cilGr+T83EvxAdSWClPQqbNvpGTES4teID334kxBRkyl57ScKvbKvxpSpAe10dLI2DtVO/OybyHD0JfOcPQ3tDNgHd4DewMV7g28vru+'
    b'qkc64ev2Ip7xKu4Zr6wLHCkvR/m9K+P8affWiX0Bn3KV8ilXznVcxxzGdtlP5cqRXt7K+dta59FFT9R6fyn3qlWiE12i1QC+1SmfZ+W5Nlvhwo'
    b'SkC7PyHJXQOk+e3lwZ6WKsBlyMrbMIEM6stxB0I5dz3VUp110lPHS1dsudwZFWeY60Nu+daSHqHPMcYcg95++ClL+rCtxabei4As9bxfWMdT5V'
    b'wvk00KcOnEtpC+A7jyDtPHo1J06VduJU0lNTx70zwhGjet6czVlSBc6SNnCHQH5l/IJWSsrfUQVODWh7TgvwHRUQd1QEPgkiKvA5QOBnAJjoNK'
    b'ik06CVzoEBFmw1C9yKH4JVPsBFF9ysaGdaHo+cFGKL3CpY5LbeQhYyC9kqWKxC669HYX+uJSSES0iDG3KBCIMrQEivAKveMq/tL+IgsmaDcJkG'
    b'mWVa1VuKGZ55yyyILqogXEfBfsq6aEhFPLkb/prlDQyuXyBcsnjkkq1VaSWsKdHOSNsygCPplRldtmxyK68m5xeaEGPS9YJMcPsX56QJ0RHQRc'
    b'IjaHMKMWatt2zwd18Gr/1uOLe4l1yTI9rs74LFd73zdJi4OWl73dvuq4D22iI7TeRDhiP2QwR3ovsCgI7ruOOYfAt60kUtBr6zJ6uXZO2FqLYE'
    b'GTV5SFRLm5INwdpsyHOVxlOHL2Qcryeoe5VV4TqhpWAEQ2gQ1UIAy06yB6WKVXGdqskAcBoDSY0BqRgVabBUAEgrgCDLihUCUUJflFWTFE9r3H'
    b'KNXjOUUhTV/miE2Bnks0O+6/STN363evz2RhxtLdBbOEJaHiERRe6MIq9jylUb5UoT3RqiiVRN61aL35IFgqyWhSXaB9n+S225eEpA3ounpSZM'
    b'xRsS8TCi8R901iZJe+HimeSzXw8GqEEsQE2jd3emSKMa4qFGjN5sx2kwPpTytYPDkb1HJHcGDwcygI7CJD0dtxUNvDGZ2La16B3brGalP/c2DS'
    b'N3dgMCyGedcvxaNM/63OrJyg05XSXLO1BHcIt9DebdoJ+nhtZTIAgVKKcxCOlCKRjS+0KHUOgM5kKykJZssABhKA/FA1IitUN1D5opcpOheeIA'
    b'MOrvjWtG9d5INKjeHy0G1WPb1wbVo0rmUJ161OY6YqRCFIKj0KC6owUELRbVTZMbkLD+KeN72fY9eNoMekmdnBVGloausWrSJPdlInl6Q/WcoZ'
    b'11IraTgf3kwDc2x/shWgbEzUreAriXoMH7CE4RrIt1LBNOzwbWX2M3vDbblpmNYwPtiY07Ae0nbEa0MEmBAZqc2kFS7Xx3fC398YztA/5hNtKF'
    b'WkCoFhrNM5IGIWkD7WNdRLXxd/gC8rwNFUh0H47M79jynqy2WxBxB2I4MrpHhhGje0zPDbrH9Uyiu78L1UGG+i1IP5dGd0ELCFoMurv2aw/ec3'
    b'6F3qoFwfwwMXC+a88WHg9YVywEnp0XBzMOwwW1WDGJ8JURJdm15YXL9RKtV6VOeQ7iWRuQ4YZjI48FPyOxxRrqo1G3IOOcJwQ3Sq5HgxfZeo+G'
    b'0DHMf3AeDYPgkST8iv0odq0zwRfDkC4cgPJFQrrn6bCnXFIaDO2YLVGAVmgkjNbIKqZn1teS0BtI6g346qGBXSoBpJVAdsFKFgJpQl+alRadXV'
    b'PERQM9aSTcLwnn5dqOst7KuOsgbV1tjadlxFAmiG/KTGi/c88ko31pq5pFxdqccc2sW9mtDgLaIUY7QX4T0gUBXeSHtPNzLSbPENbjfoXEWZ0E'
    b'PwfhrrKjM4SmFsxRgR5+8PSZGNNy+uQjS456kCRDmuTKqqZgpEcASAJUfjh/nn6aZ8h301tQtmy2Dy4MtD5f4NALIXbyVIu34RdiT2IZN650F+'
    b'xf+UGIqSzj15r8oY64XI8MyKelUy7eXs+diRhz8GL/zxqcSkukgchTPZ+mwg/D+TQfF9PzLbEaQ0SNNbZNDVah2ccPTpmiRtDkdAXyCgExhSAC'
    b'QllDIF9Iy7e39UyLpL6IvB3WwAOWPIh3mies72LYGvdWyi6t7a7GxPFGUa4Dp1qcBy0XbO150mRk1aA3zYYhBV2CTJdoKdeLfDGeNkeWEqGcmq'
    b'NH83rwn/DnpI7cncj9dRSeOgNPUXiQ3HYRX0w9SJLBo3OQpWuPAJAEIFiEc/PndORuhJst5kJ4MceuznwqjdatFzh0RmvS7JmyHlDvcxPbyLLQ'
    b'RSJbvOkwlsMuy6nf6fMLr3cQw87X2TMWkD1jEc7Y5whk7LsIndZCWmvD2EJa704PJaTVbS9ycLyGQJPTA8hKe1o8l527A2l50VA9D+dJJ2BP8X'
    b'pG/Ty8OM6as62NUJg0fPiwyuBRo8BfOhD0OuQ5dSGf/V5AshfaM9ujTGmwnMcnHl+N4X76UHDmYOppEkhBh2c7xWNsHdXgUwoBdUOcbXxPlzej'
    b'j4nfigbHHHvSkw8pnvMsJ81LmbOaY3ylGqmdrzTp9Tz+fCP3PGNQ0xr6NU4mGg5loUDP1APnCZNTgZxURpeashsw2q1Jc3YqRn2dytBzeSISzi'
    b'p9JrzbxE6PiOemAevHb/c8wMZ0aAPly4RWGwo8hZoUNm0IC7QiFhA9QsQVpB3xcbFBVjqV/XDsBoYLKoxGLBmPVXLf2x7EZWDwgwxTx5TNAnvA'
    b'AjVT9MhRYPUz2tE26Bn0emJ2C7yARBlFHqMP4vSx71vTybxZ43/OV9bnOX4+Scq+Hzzhe2OpDFr8VirjY8CtZMyKtx5zgKIZ9Jx7womQCYnQVN'
    b'RRKaDY7H386evEvHjCyepwIIwDbMl27tTQyQqP2vw5ilD5g//Dw5lREP+vYq8Ho68Ho68Ho68Ho68Ho68Ho68Ho68Ho38jB6Ob67Ho67Ho/8Fj'
    b'0d3UY9HXc6KvdU70MHxO9OynKiFzqvJ6sOyTHCw7+AfLLnMMC7LHsK6nUD7NKZRDcArlMmc2IHJm4xq+/qnC13OzwqUCuiEM6L5M8DNkg5+vcZ'
    b'+fKO7z0I/7/EyiGyGMbrxQJCAMRAJew50+ebjTIRbu9NmE80AvnOdyQS+QCHq57u9/Dvv7h/z+/oV3t0Fsnn42O7rQ39G90H7nfwHsVMOA')
PUNG_VALUES = (('big_four_winds',),
 ('big_three_dragons',),
 ('big_three_winds',),
 ('double_pung', 'double_pung'),
 ('double_pung',),
 ('four_pure_shifted_pungs',),
 ('little_four_winds',),
 ('little_three_dragons', 'double_pung'),
 ('little_three_dragons',),
 ('mixed_shifted_pungs', 'double_pung'),
 ('mixed_shifted_pungs',),
 ('pure_shifted_pungs', 'double_pung'),
 ('pure_shifted_pungs',),
 ('triple_pung',),
 ('two_dragon_pungs', 'double_pung'),
 ('two_dragon_pungs',),
 ())
PUNG_DATA = (b'eNrNVgli6iAQ7W9of7X6yxE8QoBo8DiK4cg9z2cPhCVLozVtDcvw5s1jZuz328sL2EMAINiDal+BLdxsABBL8rPa7CsINuJn9/n5CaC020KwBX'
    b'AHlBGQB7fyoxLTSs63Ckz8QjXUI7B706flzw5KEChQIFQWGkjhqHX5qkAPCA0kNOgQOCSHATU+3O0CRwpRP9KncWrcen7NaW2iBhUIGDgOjoSl'
    b'IR2ZqV5SviF0ni09cyrL0OOqyTq2lm9M2ONtiBvmAfWefJm94290LUXlxWXOTgrND9JE6YXpAs1G6gdsI7YhD2L2ol4W9jw5fEGcIjM1CdSx8g'
    b'T69AqNSRQo5aRyWkVi+XKtq9dcHQMlPSmlmK/ieXk1z9e/L++JV8LZH/m8v7/3q96wH/2OVRDXx98P71m21dS4rg/oQLh4xFvOCL+KsV5HalW+'
    b'O7HOam3Rrwo7sX7mt4GtOS12EWfCgqq5PYtrbU34Saxg89co35ekD6Q92JHBwMo74teid4utVxqxRsWpOsnoZJl13YAZVezw4lOEd2oND+LTGF'
    b'0yNhOZYX2OfGK1QzrE20iBcvw+P7tOxY7g2ZWV6Wyst1SsSB4mnR9kFkA5Sh721VqBSwinx2ziRRAj4tglmCtwQqIsYWxsCEMdH722aZcWhe1t'
    b'i0knombTrhU5Ta9ZTbESlk255B6O1UWodIGsCutf/epS5B3pMVor4cjhpJIBiXefaJdEgpn08vMAjQeMe3tC0W1phiJHUKvGspmZ1jQww0o/wW'
    b'duDrtBW77BRl0jLaUejkHpMPdIgLU0pfP4CcLjve0ywxErO0HNMKPvfB2TqspOyKNKjBw6lddIvvuyQpdMHZkqGuQzmiEaDs6SGl1XrkvUB6PX'
    b'EStVYuHahuaNWKK6NJYlS2sHmE/IGpXKpFhxpwhZk/NR2wBrXiUfJ+Ar1qesk6WVnPDIChrl69oro8scb33apD2RZliwD02K+f3ETtonai5EfK'
    b'hCRXLgNRNyyTcN0zLi2kRLpMdDHHG+fVRPQl7gekf+G1hsP2PJkThGlaUy/GGOcmczOVmRqahiv4nwcdRneAg2r5HdJjhQ5Lu8l5md7FpwGXYy'
    b'lvb501aW8JvqabHjuLP1jsO6HPPXJ3PGVdsMG9NvJugPe6rbqTmzEtS1c2Ed+u/GbuRNGzpq4hY0cQVqifEm6Tj3zjJ1G8cn44N/xdm4xYldB8'
    b'beoKAQN6RRZFsYnO8FjO+FV9i60LxudPSyUXQ1+QV6F9gJGbkELb9zzguG6ezqwNkyoXcAJfUdsLIbbV6phq7WRyhdH/NYrw+VbWLn8R5v32z8'
    b'G4yNo50f2cRv06Ob8P2Mnu0LGh1Xje/JwvsPkubw/Q==')
